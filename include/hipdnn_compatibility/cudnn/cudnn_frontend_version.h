/*
 * cudnn_frontend_version.h - the cudnn-frontend version this shim follows.
 *
 * The shim declares the v9 graph API of NVIDIA/cudnn-frontend v1.23.0 (tag v1.23.0, read at
 * commit 3929da2ef4c1dba1bb8acb68727b9134f26f40c0). Code that gates on these macros sees the
 * version whose names and signatures it gets. docs/cudnn-shim.md lists what of that version
 * runs, what is a stub and what is not declared yet.
 */
#pragma once

#define CUDNN_FRONTEND_MAJOR_VERSION 1
#define CUDNN_FRONTEND_MINOR_VERSION 23
#define CUDNN_FRONTEND_PATCH_VERSION 0
#define CUDNN_FRONTEND_VERSION \
    ((CUDNN_FRONTEND_MAJOR_VERSION * 10000) + (CUDNN_FRONTEND_MINOR_VERSION * 100) + CUDNN_FRONTEND_PATCH_VERSION)

/* Marks this cudnn_frontend as hipDNN's shim (absent from NVIDIA's). */
#define HIPDNN_CUDNN_FRONTEND_SHIM 1
