#!/bin/sh
# Lays out an install tree for one candidate of the runtime-load search order and runs
# consumer_search in it. Each tree also offers a lower-priority candidate (and the bare name is
# always resolvable through LD_LIBRARY_PATH), so a pass shows the expected candidate won.
#   search_order.sh CASE CONSUMER INSTALLED_LIBDIR TREE
set -eu
case_name=$1 consumer=$2 installed=$3 tree=$4
rm -rf "$tree"
install_copy() { mkdir -p "$1" && cp -a "$installed"/. "$1"/; }
place() { mkdir -p "$1" && cp "$consumer" "$1"/consumer_search; }
export LD_LIBRARY_PATH="$installed"
unset HIPDNN_BACKEND_LIBRARY_PATH
case $case_name in
  override)
    install_copy "$tree/opt/lib"; install_copy "$tree/env/lib"; place "$tree/app/bin"
    HIPDNN_BACKEND_LIBRARY_PATH="$tree/env/lib" exec "$tree/app/bin/consumer_search" \
      --override "$tree/opt/lib" --expect override "$tree/opt/lib" ;;
  env)
    install_copy "$tree/env/lib"; install_copy "$tree/lib"; place "$tree/bin"
    HIPDNN_BACKEND_LIBRARY_PATH="$tree/env/lib" exec "$tree/bin/consumer_search" --expect env "$tree/env/lib" ;;
  module_dir)
    install_copy "$tree/app"; install_copy "$tree/lib"; place "$tree/app"
    exec "$tree/app/consumer_search" --expect module_dir "$tree/app" ;;
  module_lib)
    install_copy "$tree/lib"; install_copy "$tree/lib64"; place "$tree/bin"
    exec "$tree/bin/consumer_search" --expect module_lib "$tree/lib" ;;
  module_lib64)
    install_copy "$tree/lib64"; place "$tree/bin"
    exec "$tree/bin/consumer_search" --expect module_lib64 "$tree/lib64" ;;
  bare_name)
    place "$tree/bin"
    exec "$tree/bin/consumer_search" --expect bare_name "$installed" ;;
  *) echo "search_order.sh: unknown case $case_name" >&2; exit 2 ;;
esac
