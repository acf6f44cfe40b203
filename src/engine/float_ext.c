/* REAL(10) (x87 long double) and REAL(16) (__float128) kernels for ferrocaf.
 * Stable Rust has neither type; gcc and libgcc do. Every function works on byte buffers and
 * loads and stores with memcpy, so no alignment is assumed. Conversions take a stride in bytes
 * for each side; REAL(10) stores write the 10 value bytes and leave the 6 padding bytes alone. */
#include <stddef.h>
#include <string.h>

typedef __int128 i128;
typedef long double f80;
typedef __float128 f128;

#define I128_MAX ((i128)(((unsigned __int128)1 << 127) - 1))
#define I128_MIN (-I128_MAX - 1)

/* Bytes a store writes: the value bytes of the type (10 for the x87 format). */
#define VALUE_SIZE(T) (__builtin_types_compatible_p(T, f80) ? 10 : sizeof(T))

/* Fortran INT of a real: truncation toward zero; NaN gives 0, out-of-range saturates. */
#define SATURATE(v) ((v) != (v) ? (i128)0 : (v) >= 0x1p127 ? I128_MAX \
                     : (v) < -0x1p127 ? I128_MIN : (i128)(v))

#define CONVERT(NAME, D, S, EXPR)                                                          \
    void ferrocaf_##NAME(unsigned char *d, size_t ds, const unsigned char *s, size_t ss,     \
                         size_t n) {                                                        \
        for (size_t i = 0; i < n; i++) {                                                    \
            S v;                                                                            \
            memcpy(&v, s + i * ss, sizeof v);                                               \
            D r = EXPR;                                                                     \
            memcpy(d + i * ds, &r, VALUE_SIZE(D));                                          \
        }                                                                                   \
    }

CONVERT(f80_from_i128, f80, i128, (f80)v)
CONVERT(f80_from_f32, f80, float, (f80)v)
CONVERT(f80_from_f64, f80, double, (f80)v)
CONVERT(f80_from_f128, f80, f128, (f80)v)
CONVERT(f128_from_i128, f128, i128, (f128)v)
CONVERT(f128_from_f32, f128, float, (f128)v)
CONVERT(f128_from_f64, f128, double, (f128)v)
CONVERT(f128_from_f80, f128, f80, (f128)v)
CONVERT(i128_from_f80, i128, f80, SATURATE(v))
CONVERT(f32_from_f80, float, f80, (float)v)
CONVERT(f64_from_f80, double, f80, (double)v)
CONVERT(i128_from_f128, i128, f128, SATURATE(v))
CONVERT(f32_from_f128, float, f128, (float)v)
CONVERT(f64_from_f128, double, f128, (double)v)

/* Fortran MIN and MAX: when one operand is a NaN the result is the other. */
#define MIN_OF(a, b) (((b) != (b) || (a) < (b)) ? (a) : (b))
#define MAX_OF(a, b) (((b) != (b) || (a) > (b)) ? (a) : (b))
#define SUM_OF(a, b) ((a) + (b))

/* acc[i] = OP(acc[i], other[i]) over n packed elements of 16 bytes. */
#define COMBINE(NAME, T, OP)                                                             \
    void ferrocaf_##NAME(unsigned char *acc, const unsigned char *other, size_t n) {     \
        for (size_t i = 0; i < n; i++) {                                                 \
            T a, b;                                                                      \
            memcpy(&a, acc + 16 * i, sizeof a);                                          \
            memcpy(&b, other + 16 * i, sizeof b);                                        \
            T r = OP(a, b);                                                              \
            memcpy(acc + 16 * i, &r, VALUE_SIZE(T));                                     \
        }                                                                                \
    }

COMBINE(f80_sum, f80, SUM_OF)
COMBINE(f80_min, f80, MIN_OF)
COMBINE(f80_max, f80, MAX_OF)
COMBINE(f128_sum, f128, SUM_OF)
COMBINE(f128_min, f128, MIN_OF)
COMBINE(f128_max, f128, MAX_OF)
