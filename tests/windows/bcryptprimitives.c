/*
 * Test-only stand-in for Windows 10's bcryptprimitives.dll, for Wine releases that lack it
 * (Wine 8, Debian 12's): Rust's standard library takes its random bytes from ProcessPrng there.
 * This one answers with RtlGenRandom (advapi32's SystemFunction036). tests/windows.sh puts it
 * beside the test programs; it is never shipped (Windows 10 and later have the real DLL).
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG part = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, part)) return FALSE;
        data += part;
        length -= part;
    }
    return TRUE;
}
