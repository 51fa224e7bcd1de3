# SelectionHeuristic::Config reads the rule file named by HIPDNN_HEUR_CONFIG_PATH on every
# finalize; the test writes that file itself.
set(rule_file "${CMAKE_CURRENT_BINARY_DIR}/${TEST_NAME}.json")
target_compile_definitions(${TEST_TARGET} PRIVATE RULE_FILE="${rule_file}")
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT "HIPDNN_HEUR_CONFIG_PATH=${rule_file}")
