// cudnn_frontend.h - umbrella of hipDNN's cuDNN-frontend shim: include this instead of NVIDIA's
// cudnn_frontend.h (add -I<prefix>/include/hipdnn_compatibility/cudnn) and cudnn-frontend v9
// graph code builds against hipdnn_backend unchanged.
//
// Everything lives in hipdnn_frontend::compatibility::cudnn_frontend (with graph and detail
// nested as upstream). The namespace alias `cudnn_frontend` makes unchanged sources build;
// define HIPDNN_CUDNN_SHIM_NO_ALIAS before including this header when the real cudnn-frontend
// is part of the same program. docs/cudnn-shim.md lists what runs and what is a stub.
#pragma once

#include "cudnn.h"
#include "cudnn_frontend_Logging.h"
#include "cudnn_frontend_utils.h"
#include "cudnn_frontend_version.h"
#include "cudnn_frontend/backend/device_properties.h"
#include "cudnn_frontend/backend/kernel_cache.h"
#include "cudnn_frontend/graph_helpers.h"
#include "cudnn_frontend/graph_interface.h"
#include "cudnn_frontend/graph_properties.h"
#include "cudnn_frontend/utils/attn_score_modifiers.h"

#ifndef HIPDNN_CUDNN_SHIM_NO_ALIAS
namespace cudnn_frontend = ::hipdnn_frontend::compatibility::cudnn_frontend;
#endif
