/* A program whose user-space instruction count is known exactly: N iterations of a
 * 3-instruction loop (add, subs, b.ne), so instructions = 3 N + b, with b the fixed cost of
 * starting, parsing and leaving the process. N is given as exactly 10 decimal digits
 * (zero-padded: "loop 0000100000"), so that parsing it costs the same for every N and b
 * really is one constant. Static, so no dynamic loader's work is counted.
 *   loop NNNNNNNNNN */
#include <string.h>

int main(int argc, char** argv) {
    if (argc != 2 || strlen(argv[1]) != 10)
        return 2;
    unsigned long n = 0;
    for (int i = 0; i < 10; ++i) {
        const unsigned digit = (unsigned)(argv[1][i] - '0');
        if (digit > 9)
            return 2;
        n = n * 10 + digit;
    }
    if (n == 0)
        return 2;
    unsigned long acc = 0;
    __asm__ volatile(
        "1:\n\t"
        "add %[acc], %[acc], #1\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b\n\t"
        : [n] "+r"(n), [acc] "+r"(acc)
        :
        : "cc");
    return acc == 0;
}
