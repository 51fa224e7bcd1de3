# torch_cudnn.sh - sourced by the GPU benches (run_fetched_mha.sh --bench, run_inprocess.sh): the
# cuDNN engine first, on PyTorch's own cuDNN. PyTorch's wheels bring their own (nvidia-cudnn),
# often newer than the system's, and a newer cuDNN has other kernels; so unless
# HIPDNNGO_CUDNN_LIBRARY is set, the engine loads PyTorch's copy (its sub-libraries sit beside it).
export HIPDNN_PREFERRED_ENGINE="${HIPDNN_PREFERRED_ENGINE:-HIPDNNGO_CUDNN}"
torch_cudnn="$(python3 -c 'import glob, os, nvidia.cudnn as m; d = os.path.join(list(m.__path__)[0], "lib"); print(d if glob.glob(d + "/libcudnn.so.9*") else "")' 2>/dev/null || true)"
if [ -z "${HIPDNNGO_CUDNN_LIBRARY:-}" ] && [ -n "$torch_cudnn" ]; then
    export HIPDNNGO_CUDNN_LIBRARY="$torch_cudnn/libcudnn.so.9"
    export LD_LIBRARY_PATH="$torch_cudnn${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
