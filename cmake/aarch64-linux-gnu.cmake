# Cross build for aarch64 Linux from an x86-64 Debian machine with multiarch :arm64 packages
# (scripts/arm64-guest.sh installs them). The :arm64 -dev packages put their libraries and
# CMake package files under /usr/lib/aarch64-linux-gnu, beside the native ones: setting the
# library architecture makes find_package/find_library look there, and the headers in
# /usr/include are shared by both architectures.
#   cmake -S . -B build-arm64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Never pick up an x86-64 library: only the multiarch aarch64 directories and the cross
# toolchain's own sysroot are searched for libraries and packages.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)
# Test binaries run in the guest (scripts/arm64-guest.sh), or here under qemu-user when it
# is installed.
find_program(PERFGAUGE_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(PERFGAUGE_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${PERFGAUGE_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
endif()
# pkg-config (RE2) reads the aarch64 .pc files, never the x86-64 ones.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# Debian's libpq-dev cannot be installed for two architectures at once (it is not Multi-Arch),
# and the native build needs it: the cross build links the arm64 runtime library (libpq5:arm64)
# with the native package's headers, which are the same on both 64-bit architectures.
if(NOT PostgreSQL_LIBRARY AND EXISTS /usr/lib/aarch64-linux-gnu/libpq.so.5)
  set(PostgreSQL_LIBRARY /usr/lib/aarch64-linux-gnu/libpq.so.5 CACHE FILEPATH "libpq (arm64)")
endif()
