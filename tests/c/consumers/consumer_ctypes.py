"""Python loads the backend with ctypes (a fresh interpreter: nothing has loaded it yet) and
makes the first calls a Python binding would: the version string, a handle, its release."""
import ctypes
import sys

HIPDNN_STATUS_SUCCESS = 0

path = sys.argv[1]
lib = ctypes.CDLL(path)  # RTLD_NOW | RTLD_LOCAL, as Python does by default

lib.hipdnnVersionString_ext.restype = ctypes.c_char_p
version = lib.hipdnnVersionString_ext().decode()
major = version.split(".")[0]
assert major.isdigit(), f"version string {version!r} does not start with a major number"

handle = ctypes.c_void_p()
lib.hipdnnCreate.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
status = lib.hipdnnCreate(ctypes.byref(handle))
assert status == HIPDNN_STATUS_SUCCESS, f"hipdnnCreate returned {status}"
assert handle.value, "hipdnnCreate returned a NULL handle"

lib.hipdnnDestroy.argtypes = [ctypes.c_void_p]
status = lib.hipdnnDestroy(handle)
assert status == HIPDNN_STATUS_SUCCESS, f"hipdnnDestroy returned {status}"

# A destroyed handle is refused with a status, not a crash.
status = lib.hipdnnDestroy(handle)
assert status != HIPDNN_STATUS_SUCCESS, "hipdnnDestroy of a destroyed handle succeeded"

print(f"ctypes: loaded {path}, version {version}, create/destroy ok")
print("PASS")
