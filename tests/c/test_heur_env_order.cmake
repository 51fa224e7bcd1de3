# Policy order from the environment: names and decimal ids, blanks around tokens, empty tokens.
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT
  "HIPDNN_HEUR_POLICY_ORDER=  TestHeuristic::Reverse , ,-5112828146460458467,8780545043193714113  ,")
