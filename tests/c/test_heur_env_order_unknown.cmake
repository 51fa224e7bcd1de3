# Only policies nobody provides.
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT "HIPDNN_HEUR_POLICY_ORDER=NoSuch::Policy, 42")
