/* Calls of a CO_REDUCE operator (Fortran 2018 16.9.47) on one pair of elements, written in C so
 * that GCC — the compiler that built the operator — applies the x86-64 calling convention for
 * every intrinsic type, including __int128, long double (REAL(10)) and __float128 (REAL(16)).
 * See src/abi/co_reduce.rs for the conventions gfortran 12 uses. */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* COMPLEX(16): a pair of __float128 (the typedef of quadmath.h). */
typedef _Complex float __attribute__((mode(TC))) complex128;

enum { CLS_INT = 0, CLS_REAL = 1, CLS_COMPLEX = 2, CLS_STRUCT = 3 };

/* One call *res = opr(x, y) with arguments of type T by reference or by value. */
#define CALL(T)                                                                    \
    do {                                                                           \
        T r_;                                                                      \
        if (by_value) {                                                            \
            T a_, b_;                                                              \
            memcpy(&a_, x, sizeof a_);                                             \
            memcpy(&b_, y, sizeof b_);                                             \
            r_ = ((T(*)(T, T))opr)(a_, b_);                                        \
        } else {                                                                   \
            r_ = ((T(*)(const void *, const void *))opr)(x, y);                    \
        }                                                                          \
        memcpy(res, &r_, sizeof r_);                                               \
        return 0;                                                                  \
    } while (0)

/* Whether the x87 register stack is empty (FXAM reports "empty" as C3=1, C2=0, C0=1). A function
 * returning long double or complex long double leaves its result there; any other leaves it
 * empty, which tells REAL(10) from REAL(16) (both have 16-byte elements and one type code). */
static int x87_empty(void) {
    uint16_t sw;
    __asm__ volatile("fxam\n\tfnstsw %0" : "=a"(sw));
    return (sw & 0x4500) == 0x4100;
}

/* Pops st(0) into *out as a 16-byte REAL(10) element (padding zeroed). */
static void x87_pop(void *out) {
    long double v;
    __asm__ volatile("fstpt %0" : "=m"(v));
    memset(out, 0, 16);
    memcpy(out, &v, 10);
}

/* REAL with 16-byte elements: REAL(16) or REAL(10), found out by calling. */
static int call_real16(void *opr, int by_value, void *res, const void *x, const void *y) {
    __float128 q;
    if (by_value) {
        __float128 a, b;
        memcpy(&a, x, 16);
        memcpy(&b, y, 16);
        q = ((__float128(*)(__float128, __float128))opr)(a, b);
    } else {
        q = ((__float128(*)(const void *, const void *))opr)(x, y);
    }
    if (x87_empty()) {
        memcpy(res, &q, 16);
        return 0;
    }
    /* A REAL(10) operator. By reference it received the right arguments: take its result.
     * By value it read long double arguments from the stack, so call it again properly. */
    x87_pop(res);
    if (by_value) {
        long double a, b, r;
        memcpy(&a, x, sizeof a);
        memcpy(&b, y, sizeof b);
        r = ((long double (*)(long double, long double))opr)(a, b);
        memset(res, 0, 16);
        memcpy(res, &r, 10);
    }
    return 0;
}

/* COMPLEX with 32-byte elements: COMPLEX(16) (returned through a hidden pointer) or
 * COMPLEX(10) (returned in st(0), st(1)), found out by calling. */
static int call_complex32(void *opr, int by_value, void *res, const void *x, const void *y) {
    unsigned char tmp[32];
    memcpy(tmp, x, 32); /* readable data, should a COMPLEX(10) operator take it as its x */
    if (by_value) {
        complex128 a, b;
        memcpy(&a, x, 32);
        memcpy(&b, y, 32);
        ((void (*)(void *, complex128, complex128))opr)(tmp, a, b);
    } else {
        ((void (*)(void *, const void *, const void *))opr)(tmp, x, y);
    }
    if (x87_empty()) {
        memcpy(res, tmp, 32);
        return 0;
    }
    /* A COMPLEX(10) operator: by value it read the same stack arguments, so its result is
     * right; by reference its arguments were shifted by the hidden pointer: call it again. */
    x87_pop(res);
    x87_pop((char *)res + 16);
    if (!by_value) {
        _Complex long double r = ((_Complex long double (*)(const void *, const void *))opr)(x, y);
        long double re = __real__ r, im = __imag__ r;
        memset(res, 0, 32);
        memcpy(res, &re, 10);
        memcpy((char *)res + 16, &im, 10);
    }
    return 0;
}

/* *res = opr(x, y) for elements of class `cls` and `size` bytes, arguments by value or by
 * reference, result returned by value (a derived type larger than 16 bytes through the hidden
 * result pointer). Returns 0, or -1 for a form this file cannot call (co_reduce.rs only passes
 * forms it has checked). */
int ferrocaf_opr_call(void *opr, int cls, size_t size, int by_value, void *res, const void *x,
                      const void *y) {
    switch (cls * 64 + (int)(size < 64 ? size : 63)) {
    case CLS_INT * 64 + 1: CALL(int8_t);
    case CLS_INT * 64 + 2: CALL(int16_t);
    case CLS_INT * 64 + 4: CALL(int32_t);
    case CLS_INT * 64 + 8: CALL(int64_t);
    case CLS_INT * 64 + 16: CALL(__int128);
    case CLS_REAL * 64 + 4: CALL(float);
    case CLS_REAL * 64 + 8: CALL(double);
    case CLS_REAL * 64 + 16: return call_real16(opr, by_value, res, x, y);
    case CLS_COMPLEX * 64 + 8: CALL(_Complex float);
    case CLS_COMPLEX * 64 + 16: CALL(_Complex double);
    case CLS_COMPLEX * 64 + 32: return call_complex32(opr, by_value, res, x, y);
    default: break;
    }
    if (cls == CLS_STRUCT && size > 16 && !by_value) {
        ((void (*)(void *, const void *, const void *))opr)(res, x, y);
        return 0;
    }
    return -1;
}

/* The CHARACTER form (gfortran's own, non-BIND(C) character functions): the result through a
 * hidden pointer and length first, the two arguments, then their lengths, all lengths in
 * characters. By value (only LEN=1 can be) each argument is passed as one register. */
void ferrocaf_opr_call_char(void *opr, int by_value, void *res, const void *x, const void *y,
                            size_t len, size_t kind) {
    if (!by_value) {
        ((void (*)(void *, size_t, const void *, const void *, size_t, size_t))opr)(res, len, x,
                                                                                   y, len, len);
        return;
    }
    uint32_t a = 0, b = 0;
    memcpy(&a, x, kind);
    memcpy(&b, y, kind);
    ((void (*)(void *, size_t, uint32_t, uint32_t, size_t, size_t))opr)(res, len, a, b, len, len);
}
