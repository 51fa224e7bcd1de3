# StaticOrdering keeps only these engines, in this order (unknown name, decimal id, name, hex id).
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT
  "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER=NOT_AN_ENGINE, 6895129033112041900 , TEST_HASHED_NAME_ENGINE,0xFFFFFFFFFFFFFFFE")
