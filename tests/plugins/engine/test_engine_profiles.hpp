// Configuration of every engine test plugin built from test_engine_plugin.cpp.
//
// CMake compiles the one source once per plugin with -DTP_PROFILE_<NAME>. Each profile below
// sets the plugin's name, reported API version, engines and optional entry points; whatever a
// profile leaves unset takes the default at the end of this file. tests/plugins/README.md has
// the same information as a table.
//
// Engine table entries: { id, applicable, name answer, name, knob set, behaviour notes }.
//   applicable   whether GetApplicableEngineIds offers the engine for a graph that verifies
//   name answer  how hipdnnEnginePluginGetEngineName answers for it (when exported):
//                Decline = NOT_APPLICABLE, Named = SUCCESS with `name`,
//                NullName = SUCCESS leaving *name NULL, EmptyName = SUCCESS with "",
//                FailWithName = INTERNAL_ERROR with *name set to `name`
//   knob set     knobs published in EngineDetails and enforced on EngineConfig settings
//   notes        bit mask of hipdnnBackendBehaviorNote_t values (1 << note)
// Plugin switches:
//   TP_EXPORT_ENGINE_NAME    export hipdnnEnginePluginGetEngineName
//   TP_EXPORT_OVERRIDES      export hipdnnEnginePluginExecuteOpGraphWithOverrides
//   TP_EXPORT_SERIALIZATION  export the three execution-context serialization entry points
//   TP_OMIT_GET_WORKSPACE_SIZE  leave the required hipdnnEnginePluginGetWorkspaceSize out
//   TP_WORKSPACE_CONFIG / TP_WORKSPACE_CONTEXT  sizes from GetWorkspaceSize / the context
//   TP_EXECUTE_FAILS         ExecuteOpGraph fails with INTERNAL_ERROR and a message
//   TP_READS_PASS_BY_VALUE   execute reads every runtime pass-by-value scalar (BAD_PARAM if the
//                            variant pack lacks it); TP_RECORDER also keeps the bytes for
//                            hipdnnTestRecorderGetLast
//   TP_DIAGNOSTICS           export hipdnnTestGetDiagnostics (live objects, stream, log level)
//   TP_GRAPH_RECORDER        keep the graph bytes of the latest GetApplicableEngineIds,
//                            GetEngineDetails and CreateExecutionContext call for
//                            hipdnnTestGraphRecorderGetLast
//   TP_EXECUTE_STATS         export hipdnnTestGetExecuteStats / hipdnnTestGetLastOverride
//   TP_FAULT                 one misbehaviour of the faulty plugins (TP_FAULT_* below)
//   TP_EXPORT_MEMORY_KINDS   export hipdnnEnginePluginGetMemoryKinds_ext: the first engine
//                            accepts device and pinned host memory, any other answers BAD_PARAM
#ifndef HIPDNN_TEST_ENGINE_PROFILES_HPP
#define HIPDNN_TEST_ENGINE_PROFILES_HPP

#include <hipdnn_plugin_sdk/engine_api_version.h>

// Faults (faulty/ plugins); 0 = behaves.
#define TP_FAULT_NONE 0
#define TP_FAULT_ZERO_ENGINES 1 // GetAllEngineIds reports 0 engines
#define TP_FAULT_COUNT_MISMATCH 2 // count query and fetch disagree (2 vs 1)
#define TP_FAULT_DUPLICATE_IDS 3 // GetAllEngineIds lists the same id twice
#define TP_FAULT_APPLICABLE_OVERFLOW 4 // GetApplicableEngineIds: *num_engines > max_engines
#define TP_FAULT_UNDECLARED_ID 5 // GetApplicableEngineIds returns an undeclared id
#define TP_FAULT_DETAILS_NULL 6 // GetEngineDetails: SUCCESS, ptr NULL
#define TP_FAULT_DETAILS_EMPTY 7 // GetEngineDetails: SUCCESS, size 0
#define TP_FAULT_DETAILS_GARBAGE 8 // GetEngineDetails: SUCCESS, bytes that do not verify
#define TP_FAULT_CONTEXT_NULL 9 // CreateExecutionContext: SUCCESS, context NULL
#define TP_FAULT_CONTEXT_WORKSPACE 10 // GetWorkspaceSizeFromExecutionContext fails
#define TP_FAULT_WRONG_TYPE 11 // GetType answers HIPDNN_PLUGIN_TYPE_HEURISTIC
#define TP_FAULT_CREATE_NULL 12 // Create: SUCCESS, handle NULL
#define TP_FAULT_SHARED_HANDLE 13 // Create returns a static object shared by two plugins

// The id a TP_FAULT_UNDECLARED_ID plugin offers without declaring it.
#define TP_UNDECLARED_ENGINE_ID (-1050)

#define TP_NOTE(n) (1u << (n))

// ---------------------------------------------------------------------------------------------
#if defined(TP_PROFILE_GOOD)
#define TP_PLUGIN_NAME "test_good_plugin"
#define TP_API_VERSION HIPDNN_ENGINE_API_VERSION
#define TP_ENGINES                                                                  \
    {                                                                               \
        {                                                                           \
            -2, true, NameAnswer::Decline, nullptr, KnobSet::None,                  \
                TP_NOTE(HIPDNN_BEHAVIOR_NOTE_SUPPORTS_EXECUTION_PLAN_SERIALIZATION) \
        }                                                                           \
    }
#define TP_EXPORT_ENGINE_NAME 1
#define TP_EXPORT_SERIALIZATION 1
#define TP_WORKSPACE_CONFIG 1024
#define TP_WORKSPACE_CONTEXT 2048
#define TP_DIAGNOSTICS 1

#elif defined(TP_PROFILE_GOOD_DEFAULT)
#define TP_PLUGIN_NAME "test_good_default_plugin"
#define TP_API_VERSION HIPDNN_ENGINE_API_VERSION
#define TP_ENGINES                                                                                                       \
    {                                                                                                                    \
        {                                                                                                                \
            engineId("TEST_GOOD_DEFAULT_ENGINE"), true, NameAnswer::Named, "TEST_GOOD_DEFAULT_ENGINE", KnobSet::None, 0u \
        }                                                                                                                \
    }
#define TP_EXPORT_ENGINE_NAME 1

#elif defined(TP_PROFILE_CONFIG_KNOB)
// One engine whose configuration-index knob lists four configurations (the cuDNN-frontend
// shim's list_alternatives).
#define TP_PLUGIN_NAME "test_config_knob_plugin"
#define TP_API_VERSION HIPDNN_ENGINE_API_VERSION
#define TP_ENGINES                                                                                                \
    {                                                                                                             \
        {                                                                                                         \
            engineId("TEST_CONFIG_KNOB_ENGINE"), true, NameAnswer::Named, "TEST_CONFIG_KNOB_ENGINE", KnobSet::ConfigIndex, 0u \
        }                                                                                                         \
    }
#define TP_EXPORT_ENGINE_NAME 1

#elif defined(TP_PROFILE_EXECUTE_FAILS)
#define TP_PLUGIN_NAME "test_execute_fails_plugin"
#define TP_API_VERSION HIPDNN_ENGINE_API_VERSION
#define TP_ENGINES                                                                                                         \
    {                                                                                                                      \
        {                                                                                                                  \
            engineId("TEST_EXECUTE_FAILS_ENGINE"), true, NameAnswer::Named, "TEST_EXECUTE_FAILS_ENGINE", KnobSet::None, 0u \
        }                                                                                                                  \
    }
#define TP_EXPORT_ENGINE_NAME 1
#define TP_EXECUTE_FAILS 1

#elif defined(TP_PROFILE_NO_APPLICABLE_A)
#define TP_PLUGIN_NAME "test_no_applicable_engines_a_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -4, false, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }

#elif defined(TP_PROFILE_NO_APPLICABLE_B)
#define TP_PLUGIN_NAME "test_no_applicable_engines_b_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -5, false, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }

#elif defined(TP_PROFILE_DUPLICATE_ID_A)
#define TP_PLUGIN_NAME "test_duplicate_id_a_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                    \
    {                                                                 \
        {                                                             \
            -7, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                             \
    }

#elif defined(TP_PROFILE_DUPLICATE_ID_B)
// Also offers -6, which nobody else claims: that engine must survive when -7 is dropped.
#define TP_PLUGIN_NAME "test_duplicate_id_b_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                    \
    {                                                                 \
        {-7, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u},  \
        {                                                             \
            -6, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                             \
    }

#elif defined(TP_PROFILE_INCOMPLETE_API)
#define TP_PLUGIN_NAME "test_incomplete_api_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                    \
    {                                                                 \
        {                                                             \
            -3, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                             \
    }
#define TP_OMIT_GET_WORKSPACE_SIZE 1

#elif defined(TP_PROFILE_KNOBS)
#define TP_PLUGIN_NAME "test_knobs_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                                                                  \
    {                                                                                                               \
        {-8,                                                                                                        \
         true,                                                                                                      \
         NameAnswer::Decline,                                                                                       \
         nullptr,                                                                                                   \
         KnobSet::DemoA,                                                                                            \
         TP_NOTE(HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION) | TP_NOTE(HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE)}, \
        {                                                                                                           \
            -9, true, NameAnswer::Decline, nullptr, KnobSet::DemoB,                                                 \
                TP_NOTE(HIPDNN_BEHAVIOR_NOTE_REQUIRES_LAYOUT_TRANSFORM)                                             \
                    | TP_NOTE(HIPDNN_BEHAVIOR_NOTE_EXTERNAL_LIBRARY_DEPENDENCY)                                     \
        }                                                                                                           \
    }
// EngineDetails.name of -8 (only there; the plugin does not export GetEngineName): the host
// must ignore it when naming the engine.
#define TP_DETAILS_ONLY_NAME_ENGINE (-8)
#define TP_DETAILS_ONLY_NAME "TEST_KNOBS_DETAILS_ONLY_NAME"
// Numerical notes: -8 uses tensor cores, and is NONDETERMINISTIC unless test.knobs.mode is
// "accurate"; -9 reports none.
#define TP_EXPORT_NUMERICAL_NOTES 1
// Memory kinds: -8 accepts device and pinned host memory; the query fails for -9.
#define TP_EXPORT_MEMORY_KINDS 1

#elif defined(TP_PROFILE_KNOB_CONSTRAINT_VALIDATION)
#define TP_PLUGIN_NAME "test_knob_constraint_validation_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                           \
    {                                                                        \
        {                                                                    \
            -10, true, NameAnswer::Decline, nullptr, KnobSet::Constraint, 0u \
        }                                                                    \
    }

#elif defined(TP_PROFILE_INCOMPATIBLE_VERSION)
#define TP_PLUGIN_NAME "test_incompatible_version_plugin"
#define TP_API_VERSION "2.0.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -11, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }

#elif defined(TP_PROFILE_OVERRIDE_IMPLEMENTING)
#define TP_PLUGIN_NAME "test_override_implementing_plugin"
#define TP_API_VERSION "1.1.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -12, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }
#define TP_EXPORT_OVERRIDES 1
#define TP_EXECUTE_STATS 1

#elif defined(TP_PROFILE_SECOND_OVERRIDE)
#define TP_PLUGIN_NAME "test_second_override_plugin"
#define TP_API_VERSION "1.1.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -15, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }
#define TP_EXPORT_OVERRIDES 1
#define TP_EXECUTE_STATS 1

#elif defined(TP_PROFILE_OVERRIDE_OMITTING)
#define TP_PLUGIN_NAME "test_override_omitting_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -13, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }
#define TP_EXECUTE_STATS 1

#elif defined(TP_PROFILE_VERSION_LIAR)
#define TP_PLUGIN_NAME "test_version_liar_plugin"
#define TP_API_VERSION "1.1.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -14, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }
#define TP_EXECUTE_STATS 1

#elif defined(TP_PROFILE_MALFORMED_VERSION)
#define TP_PLUGIN_NAME "test_malformed_version_plugin"
#define TP_API_VERSION "one.two"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -16, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }

#elif defined(TP_PROFILE_VERSION_ZERO)
#define TP_PLUGIN_NAME "test_version_zero_plugin"
#define TP_API_VERSION "0.0.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -17, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }

#elif defined(TP_PROFILE_PASS_BY_VALUE)
#define TP_PLUGIN_NAME "test_pass_by_value_plugin"
#define TP_API_VERSION "1.2.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -24, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }
#define TP_READS_PASS_BY_VALUE 1

#elif defined(TP_PROFILE_PASS_BY_VALUE_RECORDER)
#define TP_PLUGIN_NAME "test_pass_by_value_recorder_plugin"
#define TP_API_VERSION "1.2.0"
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -25, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }
#define TP_READS_PASS_BY_VALUE 1
#define TP_RECORDER 1

#elif defined(TP_PROFILE_GRAPH_RECORDER)
// Stands for a plugin built against a newer schema: accepts any graph that verifies, including
// one with a node type or an enum value the backend cannot read, and records what it received.
#define TP_PLUGIN_NAME "test_graph_recorder_plugin"
#define TP_API_VERSION HIPDNN_ENGINE_API_VERSION
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -31, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }
#define TP_GRAPH_RECORDER 1

#elif defined(TP_PROFILE_HASHED_NAME)
#define TP_PLUGIN_NAME "test_hashed_name_plugin"
#define TP_API_VERSION HIPDNN_ENGINE_API_VERSION
#define TP_ENGINES                                                                                                     \
    {                                                                                                                  \
        {                                                                                                              \
            engineId("TEST_HASHED_NAME_ENGINE"), true, NameAnswer::Named, "TEST_HASHED_NAME_ENGINE", KnobSet::None, 0u \
        }                                                                                                              \
    }
#define TP_EXPORT_ENGINE_NAME 1

#elif defined(TP_PROFILE_LYING_ENGINE_NAME)
#define TP_PLUGIN_NAME "test_lying_engine_name_plugin"
#define TP_API_VERSION HIPDNN_ENGINE_API_VERSION
#define TP_ENGINES                                                                                            \
    {                                                                                                         \
        {-26, true, NameAnswer::NullName, nullptr, KnobSet::None, 0u},                                        \
            {-27, false, NameAnswer::EmptyName, nullptr, KnobSet::None, 0u},                                  \
        {                                                                                                     \
            -28, false, NameAnswer::FailWithName, "TEST_LYING_ENGINE_NAME_MUST_BE_IGNORED", KnobSet::None, 0u \
        }                                                                                                     \
    }
#define TP_EXPORT_ENGINE_NAME 1

#elif defined(TP_PROFILE_MISMATCHED_NAME)
#define TP_PLUGIN_NAME "test_mismatched_name_plugin"
#define TP_API_VERSION HIPDNN_ENGINE_API_VERSION
#define TP_ENGINES                                                                         \
    {                                                                                      \
        {                                                                                  \
            -29, true, NameAnswer::Named, "TEST_MISMATCHED_NAME_ENGINE", KnobSet::None, 0u \
        }                                                                                  \
    }
#define TP_EXPORT_ENGINE_NAME 1

#elif defined(TP_PROFILE_MINIMAL)
// Only the required symbols: no GetApiVersion (host assumes 1.0.0), no SetLoggingCallback /
// SetLogLevel, no GetEngineName, no serialization, no overrides.
#define TP_PLUGIN_NAME "test_minimal_plugin"
#define TP_OMIT_GET_API_VERSION 1
#define TP_OMIT_LOGGING_ENTRY_POINTS 1
#define TP_ENGINES                                                     \
    {                                                                  \
        {                                                              \
            -30, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                              \
    }

// ---- faulty/ ---------------------------------------------------------------------------------
#elif defined(TP_PROFILE_FAULTY_ZERO_ENGINES)
#define TP_PLUGIN_NAME "test_faulty_zero_engines_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -101, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_ZERO_ENGINES

#elif defined(TP_PROFILE_FAULTY_COUNT_MISMATCH)
#define TP_PLUGIN_NAME "test_faulty_count_mismatch_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -102, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_COUNT_MISMATCH

#elif defined(TP_PROFILE_FAULTY_DUPLICATE_IDS)
#define TP_PLUGIN_NAME "test_faulty_duplicate_ids_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -103, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_DUPLICATE_IDS

#elif defined(TP_PROFILE_FAULTY_APPLICABLE_OVERFLOW)
#define TP_PLUGIN_NAME "test_faulty_applicable_overflow_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -104, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_APPLICABLE_OVERFLOW

#elif defined(TP_PROFILE_FAULTY_UNDECLARED_ID)
#define TP_PLUGIN_NAME "test_faulty_undeclared_id_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -105, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_UNDECLARED_ID

#elif defined(TP_PROFILE_FAULTY_DETAILS_NULL)
#define TP_PLUGIN_NAME "test_faulty_details_null_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -106, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_DETAILS_NULL

#elif defined(TP_PROFILE_FAULTY_DETAILS_EMPTY)
#define TP_PLUGIN_NAME "test_faulty_details_empty_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -107, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_DETAILS_EMPTY

#elif defined(TP_PROFILE_FAULTY_DETAILS_GARBAGE)
#define TP_PLUGIN_NAME "test_faulty_details_garbage_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -108, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_DETAILS_GARBAGE

#elif defined(TP_PROFILE_FAULTY_CONTEXT_NULL)
#define TP_PLUGIN_NAME "test_faulty_context_null_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -109, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_CONTEXT_NULL

#elif defined(TP_PROFILE_FAULTY_CONTEXT_WORKSPACE)
#define TP_PLUGIN_NAME "test_faulty_context_workspace_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -110, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_CONTEXT_WORKSPACE

#elif defined(TP_PROFILE_FAULTY_WRONG_TYPE)
#define TP_PLUGIN_NAME "test_faulty_wrong_type_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -111, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_WRONG_TYPE

#elif defined(TP_PROFILE_FAULTY_CREATE_NULL)
#define TP_PLUGIN_NAME "test_faulty_create_null_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -112, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_CREATE_NULL

#elif defined(TP_PROFILE_FAULTY_SHARED_HANDLE_A)
#define TP_PLUGIN_NAME "test_faulty_shared_handle_a_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -113, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_SHARED_HANDLE

#elif defined(TP_PROFILE_FAULTY_SHARED_HANDLE_B)
#define TP_PLUGIN_NAME "test_faulty_shared_handle_b_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_ENGINES                                                      \
    {                                                                   \
        {                                                               \
            -114, true, NameAnswer::Decline, nullptr, KnobSet::None, 0u \
        }                                                               \
    }
#define TP_FAULT TP_FAULT_SHARED_HANDLE

#else
#error "define one TP_PROFILE_<NAME> (see test_engine_profiles.hpp)"
#endif

// ---- defaults --------------------------------------------------------------------------------
#ifndef TP_EXPORT_ENGINE_NAME
#define TP_EXPORT_ENGINE_NAME 0
#endif
#ifndef TP_EXPORT_NUMERICAL_NOTES
#define TP_EXPORT_NUMERICAL_NOTES 0
#endif
#ifndef TP_EXPORT_OVERRIDES
#define TP_EXPORT_OVERRIDES 0
#endif
#ifndef TP_EXPORT_MEMORY_KINDS
#define TP_EXPORT_MEMORY_KINDS 0
#endif
#ifndef TP_EXPORT_SERIALIZATION
#define TP_EXPORT_SERIALIZATION 0
#endif
#ifndef TP_WORKSPACE_CONFIG
#define TP_WORKSPACE_CONFIG 0
#endif
#ifndef TP_WORKSPACE_CONTEXT
#define TP_WORKSPACE_CONTEXT 0
#endif
#ifndef TP_EXECUTE_FAILS
#define TP_EXECUTE_FAILS 0
#endif
#ifndef TP_READS_PASS_BY_VALUE
#define TP_READS_PASS_BY_VALUE 0
#endif
#ifndef TP_RECORDER
#define TP_RECORDER 0
#endif
#ifndef TP_DIAGNOSTICS
#define TP_DIAGNOSTICS 0
#endif
#ifndef TP_GRAPH_RECORDER
#define TP_GRAPH_RECORDER 0
#endif
#ifndef TP_EXECUTE_STATS
#define TP_EXECUTE_STATS 0
#endif
#ifndef TP_FAULT
#define TP_FAULT TP_FAULT_NONE
#endif
#ifndef TP_DETAILS_ONLY_NAME
#define TP_DETAILS_ONLY_NAME_ENGINE 0
#define TP_DETAILS_ONLY_NAME nullptr
#endif

#endif // HIPDNN_TEST_ENGINE_PROFILES_HPP
