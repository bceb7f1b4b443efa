// Outside test vectors for the bellman/bellperson Groth16 formats (issue 21 item 8): verifying keys,
// proofs and public inputs that other implementations test against, read by our .vk and proof readers
// and checked by our verifier (valid proofs accepted, modified inputs and the invalid vectors refused).
//
// Source (data, copied byte for byte as the base64 of the source file):
//   repository Consensys/gnark, file backend/groth16/bellman_test.go, commit
//   10937705a8653aaeeb59ae8f1f6111882411857b, TestVerifyBellmanProof (gnark adapted them from
//   esuwu/groth16-verifier-bls12381, a verifier built on zkcrypto's bellman). The table's entries 0, 1, 3,
//   4, 5, 8 and 9 (counting from 0) are used: keys with 0, 1 and 15 public inputs (entry 2 repeats
//   entry 1; entries 6, 7, 10 and 11, more 15–16-input sets, are not copied here). gnark asserts only
//   its valid entries; the invalid ones (ok = false) are the original project's negative cases and
//   are asserted refused here.
//
// Their layout is the field order of bellman's VerifyingKey::write, but with COMPRESSED points (ZCash
// flags), as the original project stored them:
//   alpha_g1 G1c(48) ‖ beta_g1 G1c ‖ beta_g2 G2c(96) ‖ gamma_g2 G2c ‖ delta_g1 G1c ‖ delta_g2 G2c ‖
//   u32 big-endian n ‖ n × G1c (ic)                                             = 436 + 48·n bytes
// (in gnark's copy beta_g1 and delta_g1 repeat alpha_g1's bytes; the verifier never reads them). bellperson's
// .vk is the same sequence with UNCOMPRESSED points (868 + 96·n bytes): the test decompresses every
// point (checked decode) and writes that .vk, then reads it back through VerifyingKey::from_bytes.
// Proofs: A G1c ‖ B G2c ‖ C G1c = 192 bytes, exactly bellperson's proof encoding (Proof::from_bytes).
// Public inputs: 32 bytes each, BIG-endian (gnark reads them as big-endian fr elements); the test
// reverses each into the 32-byte little-endian Fr encoding that verify_proof_bytes takes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/groth16/groth16.hpp"

namespace proofline::groth16 {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes from_base64(std::string_view s) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  Bytes out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    if (c == '=') break;
    const int v = value(c);
    if (v < 0) throw std::invalid_argument(std::string("test: not base64: ") + c);
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  return out;
}

constexpr const char* k_vk1 =
    "hwk883gUlTKCyXYA6XWZa8H9/xKIYZaJ0xEs0M5hQOMxiGpxocuX/8maSDmeCk3bhwk883gUlTKCyXYA6XWZa8H9/xKIYZaJ0xEs"
    "0M5hQOMxiGpxocuX/8maSDmeCk3bo5ViaDBdO7ZBxAhLSe5k/5TFQyF5Lv7KN2tLKnwgoWMqB16OL8WdbePIwTCuPtJNAFKoTZyl"
    "LDbSf02kckMcZQDPF9iGh+JC99Pio74vDpwTEjUx5tQ99gNQwxULtztsqDRsPnEvKvLmsxHt8LQVBkEBm2PBJFY+OXf1MNW021vi"
    "DBpR10mX4WQ6zrsGL5L0GY4cwf4tlbh+Obit+LnN/SQTnREf8fPpdKZ1sa/ui3pGi8lMT6io4D7Ujlwx2RdChwk883gUlTKCyXYA"
    "6XWZa8H9/xKIYZaJ0xEs0M5hQOMxiGpxocuX/8maSDmeCk3bkBF+isfMf77HCEGsZANw0hSrO2FGg14Sl26xLAIohdaW8O7gEaag"
    "8JdVAZ3OVLd5Df1NkZBEr753Xb8WwaXsJjE7qxwINL1KdqA4+EiYW4edb7+a9bbBeOPtb67ZxmFqAAAAAoMkzUv+KG8WoXszZI5N"
    "NMrbMLBDYP/xHunVgSWcix/kBrGlNozv1uFr0cmYZiij3YqToYs+EZa3dl2ILHx7H1n+b+Bjky/td2QduHVtf5t/Z9sKCfr+vOn1"
    "2zVvOVz/6w==";
constexpr const char* k_p1 =
    "lvQLU/KqgFhsLkt/5C/scqs7nWR+eYtyPdWiLVBux9GblT4AhHYMdCgwQfSJcudvsgV6fXoK+DUSRgJ++Nqt+Wvb7GlYlHpxCysQ"
    "hz26TTu8Nyo7zpmVPH92+UYmbvbQCSvX2BhWtvkfHmqDVjmSIQ4RUMfeveA1KZbSf999NE4qKK8Do+8oXcmTM4LZVmh1rlyqznId"
    "FXPN7x3pD4E0gb6/y69xtWMChv9654FMg05bAdueKt9uA4BEcAbpkdHF";
constexpr const char* k_i1 =
    "LcMT3OOlkHLzJBKCKjjzzVMg+r+FVgd52LlhZPB4RFg=";
constexpr const char* k_i2 =
    "cmzVCcRVnckw3QUPhmG4Bkppeg4K50oDQwQ9EH+Fq1s=";
constexpr const char* k_vk2 =
    "kYYCAS8vM2T99GeCr4toQ+iQzvl5fI89mPrncYqx3C1d75BQbFk8LMtcnLWwntd6kYYCAS8vM2T99GeCr4toQ+iQzvl5fI89mPrn"
    "cYqx3C1d75BQbFk8LMtcnLWwntd6knkzSwcsialcheg69eZYPK8EzKRVI5FrRHKi8rgB+R5jyPV70ejmYEx1neTmfYKODRmARr/l"
    "d6pZTzBWYDfrCkiS1QB+3q3M08OQgYcLzs/vjW4epetDCmk0K1CEGcWdh7yLzdqr7HHQNOpZI8mdj/7lR0IBqB9zvRfyTr+guUG2"
    "2kZo4y2KINDp272xGglKEeTglTxyDUriZJNF/+T6F8w70MR/rV+flvuo6EJ0+HA+A2ZnBbTjOIl9wjisBV+0kYYCAS8vM2T99GeC"
    "r4toQ+iQzvl5fI89mPrncYqx3C1d75BQbFk8LMtcnLWwntd6jgld4oAppAOzvQ7eoIx2tbuuKVSdbJm65KDxl/T+boaYnjRm3omd"
    "ETYnYRk3HAhrAeWpefX+dM/k7PrcheInnxHUyjzSzqlN03xYjg28kdda9FZJaVsQKqdEJ/St9ivXAAAAAZae/nTwyDn5u+4WkhZ7"
    "6991cGB/ymyGpXziT0bwS86pRw/AcbpzXmzK+hq+kvrvpw==";
constexpr const char* k_p2 =
    "sStVLdyxqInmv76iaNnRFB464lGq48iVeqYWSi2linE9DST0fTNhxSnvSXAoPpt8tFsanj5vPafC+ij/Fh98dOUlMbO42bf280pO"
    "Z4lm+zr63AWUpOOIugST+S6pq9zeB0OHp2NY8XFmriOEKhxeabhuV89ljqCDjlhXBeNZwM5zti4zg89Hd8TbKcw46jAsjIJe2Siw"
    "3Th7ELQQKR5ucX50f0GISmnOSceePPdvjbGJ8fSFOnSmSp8dK7uyehrU";
constexpr const char* k_vk3 =
    "mY//hEITCBCZUJUN/wsOlw1iUSSOESL6PFSbN1abGK80t5jPNICNlPuSorio4mmWmY//hEITCBCZUJUN/wsOlw1iUSSOESL6PFSb"
    "N1abGK80t5jPNICNlPuSorio4mmWpf+4uOyv3gPZe54SYGM4pfhteqJpwFQxdlpwXWyYxMTNaSLDj8VtSn/EJaSu+P6nFmWsda3m"
    "TYUPYMZzWE4hMqpDgFPcJhw3prArMThDPbR3Hx7E6NRAAR0LqcrdtsbDqu2T0tto1rpnFILdvHL4PqEUfTmF2mkM+DKj7lKwvvZU"
    "bukqBwLrnnbdfyqZJryzGAMIa2JvMEMYszGsYyiPXZvYx6Luk54oWOlOrwEKrCY4NMPwch6DbFq6KpnNSQwOmY//hEITCBCZUJUN"
    "/wsOlw1iUSSOESL6PFSbN1abGK80t5jPNICNlPuSorio4mmWpgRYCz7wpjk57X+NGJmo85tYKc+TNa1rT4/DxG9v6SHkpXmmPeHh"
    "zIIW8MOdkFjxB5o6Qn8Fa0c6Tt6br2gzkrGr1eK5/+RiIgEzVhcRrqdY/p7PLmKXqawrEvIv9QZ3AAAAAoo8rTzcIp5QvF3USzv2"
    "Lz99z43CPVkjHB1ejzj/SjzKNa54GiDzHoCoAL0xKLjRSqeL98AF0V1+cRI8FwJjOcMgf0gDmjzwiv3ppbPZKqJR7Go+57k02670"
    "lfG6s1MM0A==";
constexpr const char* k_p3 =
    "g53N8ecorvG2sDgNv8D7quVhKMIIpdP9Bqk/8gmV5cJ5Rhk9gKvb4F0ll8J/ZZJVqa27OyciJwx6lym6QpVK9q1ASrqio7rD5POM"
    "DGm64Iay/ixXXn+//F+uKgDXADj9AySri2J1j3qEkqqe3kxKthw94DzAfUBPncHfTPazVtE48AfzB1KWZA7Vf/x/3phYs4ckcP7Z"
    "rdVViJVLbUgFy543dpKfEH2MD30ZLLYRhw8SatRCyIJuTZcMlluEKG+d";
constexpr const char* k_i3 =
    "aZ8tqrOeEJKt4AMqiRF/WJhIKTDC0HeDTgiJVLZ8OEs=";
constexpr const char* k_vk7 =
    "lp7+dPDIOfm77haSFnvr33VwYH/KbIalfOJPRvBLzqlHD8BxunNebMr6Gr6S+u+nlp7+dPDIOfm77haSFnvr33VwYH/KbIalfOJP"
    "RvBLzqlHD8BxunNebMr6Gr6S+u+nh7yLzdqr7HHQNOpZI8mdj/7lR0IBqB9zvRfyTr+guUG22kZo4y2KINDp272xGglKEeTglTxy"
    "DUriZJNF/+T6F8w70MR/rV+flvuo6EJ0+HA+A2ZnBbTjOIl9wjisBV+0iISo2JdNY1vPXlpwhlL2fVpW/WlREkF0bKlBadDIbNJB"
    "gM4niJGuEZDru3wqrGueETKHPv7hQ8em+p6vQolp7c0iknjXrGnvlpf4QtUtpg3z/D+snWjRPbVqRgKXWtihlp7+dPDIOfm77haS"
    "Fnvr33VwYH/KbIalfOJPRvBLzqlHD8BxunNebMr6Gr6S+u+nuIvPFaM6dt7HZEbkeMnXWwSINeYC/j3lqYnce8Jq+XkuF42stVNi"
    "ooI+TuXECnFdFi9Ib25b9wtyz3H/oKg48He1ftntj5uIRCOBvzkFHGUF6Ty214v3JYvXJjdS4uS2AAAAAY3pKZWWKFdGlxJ2BDiL"
    "3xe3eMWst6pMdjbKaKDOB3maYh5JyFpFFYRlSQcwQy4ywQ==";
constexpr const char* k_p7 =
    "jiGBK+TGHfH8Oadexhdet7ExyIWibSmamWQvffZkyl3WnMoVbTQ3lOks4Mca3sU5qgcaLyQQ1FjFW4g6vtoMapZ43hTGKaWO7bQH"
    "sOCvdwHCdwJDulVH16cMTyS9F0BfBJxa88F+JKZc4qMTJjQhspmq755SrKhN9Jf+7uPUhgB4hJTSrmlOkTatgW+/HAf5kZKhv2oR"
    "K5p5kS4sU48oqlG1azhMtcHEXDQdcwf9ANel4Z9cb+MQyp2RzI/3hlIx";
constexpr const char* k_vk8 =
    "lp7+dPDIOfm77haSFnvr33VwYH/KbIalfOJPRvBLzqlHD8BxunNebMr6Gr6S+u+nlp7+dPDIOfm77haSFnvr33VwYH/KbIalfOJP"
    "RvBLzqlHD8BxunNebMr6Gr6S+u+nh7yLzdqr7HHQNOpZI8mdj/7lR0IBqB9zvRfyTr+guUG22kZo4y2KINDp272xGglKEeTglTxy"
    "DUriZJNF/+T6F8w70MR/rV+flvuo6EJ0+HA+A2ZnBbTjOIl9wjisBV+0iISo2JdNY1vPXlpwhlL2fVpW/WlREkF0bKlBadDIbNJB"
    "gM4niJGuEZDru3wqrGueETKHPv7hQ8em+p6vQolp7c0iknjXrGnvlpf4QtUtpg3z/D+snWjRPbVqRgKXWtihlp7+dPDIOfm77haS"
    "Fnvr33VwYH/KbIalfOJPRvBLzqlHD8BxunNebMr6Gr6S+u+nuIvPFaM6dt7HZEbkeMnXWwSINeYC/j3lqYnce8Jq+XkuF42stVNi"
    "ooI+TuXECnFdFi9Ib25b9wtyz3H/oKg48He1ftntj5uIRCOBvzkFHGUF6Ty214v3JYvXJjdS4uS2AAAAAo3pKZWWKFdGlxJ2BDiL"
    "3xe3eMWst6pMdjbKaKDOB3maYh5JyFpFFYRlSQcwQy4ywY4hgSvkxh3x/DmnXsYXXrexMciFom0pmplkL332ZMpd1pzKFW00N5Tp"
    "LODHGt7FOQ==";
constexpr const char* k_p8 =
    "hp1iMepdu0rKoBh0NXcw9F9hkiggDIkRNINq2rlvUypPiSmp8U8tDSMeG0YVSovFteecr3THhBJj0qNeEe9jA2Ci64fKG9WT1heM"
    "YzEAQKebOErYXYCm9d72n97mYn1XBq+g1Y730XEDv4BIDI1hBDntJcgcj/cSvcILB1+60axJvtyMyuizxUr1JUBUq9njtmJ9m8zK"
    "6QZLNqMiKh0f2jokQb5mVhu6v5guW3KIjwQc/oFK/l5ehKAOPKUUggNh";
constexpr const char* k_i8 =
    "c9BSUPtO0xjPxWVNkEMfXe7O4UZKpaH/nLIyQJj7iA4=";
constexpr const char* k_vk4 =
    "tRpqHB4HADuHAUvHTcrzxmq1awdwEBA0GOJfebYTODyUqXBQ7FkYrz1oDvPyx5Z3tRpqHB4HADuHAUvHTcrzxmq1awdwEBA0GOJf"
    "ebYTODyUqXBQ7FkYrz1oDvPyx5Z3sUmODSJXAQmAFBVnS2t+Xzf5ZCr1gCtMiJVjQ48/nob/SkrS4cTHHjbKIVS9cdD/BG/VDrZv"
    "Bt/dPqXmdUFyFuTTMrViagR57YRrDmm1qm5LQ/A8VwUBdiArwgRQXH9jsYhgVmfcRAjJytrbYeR6ck4ZfmGr6x6akKiBLY4B1l9L"
    "aHTyz/6KSM5t8atpuR3HBJZfbBm2/K8nnYTl+mAU/EnIN3YQdUd65Hsd4Gtf6VT2qfz6hcrSgHutxR1usIL2tRpqHB4HADuHAUvH"
    "Tcrzxmq1awdwEBA0GOJfebYTODyUqXBQ7FkYrz1oDvPyx5Z3kyU9X4Kqjx6I6zYwVbn7PWbiy3OtY277z4ggIqW6AuDgzUeIyG9a"
    "4stMeQ07mOV/Ef4faj+eh4GJRKjJm7aUTYJCSAGY6klOXNoEzB54XF4EY5pkMPfW73SmxJi9B0aHAAAAEJGVg8trc1JcL8WfwX7A"
    "5FGZ7epiPqnQzrUxuiRSLUkGaLWBgwZusz3M8KN2QBqa/IIm0xOg40+xhjQxJduo4ACd2gHQa3+2G9L1hGIsziSuEjv1HfuP1sVw"
    "28u8W8JRWJIBLWGzDuj16M4Uag4qLSdAn3UhMTRwPQN+5kf26TTisoQK38r0gSCZ1EIDsOcDAavhjj+Z+/BPfWua2OBVxlJjNyxn"
    "afwr5BiE2H9OElh5GQBLnmB/emLOY6x5SGUANpPY9NiYvki/NgyRR/Cw4e+34Ifc4dMAIwgKmO/6+9uN+EQwPe23xGSWr0ZgBDbI"
    "H5bElW/Hfa0DAaVpd15G/JjZVDkn/iwF3l2EEeNmeMrlI8AFL5P//oprobFhfGQjJKW/cEP+nK1R+BORN3+iH/zLfw3Hp1pTzbb7"
    "tgiRWrXPKt9WknZ1oTDfFOuUl9wwaLg3PBFwxXebcMuFVjEuZYWOlW1P5UvE/KMoa/jSKbLbClJkodBDNaxslIdjzYCGM6Hgc5x1"
    "moKdljt5yGzWCHFxETgU/EKagOA6s8b+uuY8Goxl5gGsEb3Wasy6rwpHro3pKZWWKFdGlxJ2BDiL3xe3eMWst6pMdjbKaKDOB3ma"
    "Yh5JyFpFFYRlSQcwQy4ywY4hgSvkxh3x/DmnXsYXXrexMciFom0pmplkL332ZMpd1pzKFW00N5TpLODHGt7FOYadYjHqXbtKyqAY"
    "dDV3MPRfYZIoIAyJETSDatq5b1MqT4kpqfFPLQ0jHhtGFUqLxZQOA7IwcJ7SR+OTYDW2P0W7v4X3u0LJE5AYk6NgPpJmEh++VL39"
    "lAF8AQE9T6BNLKrWJ3Rdim7YZehspVd4/TSCrSMx3fxsJXhMbjOypSNR9tj+/G6+c5ofA+1dWhXMT6X7UIY3IeGm17sRD+GoYHzZ"
    "rYXYaEr0MpC4Y25hvQa78Jsmg0Xf7Bwk3kl5i6iMm63erQPGSyatgy8yiRDpZnzPWiIoS3vxS53X500pDStnreKPLzN2IwJoDp6w"
    "KOySKQ==";
constexpr const char* k_p4 =
    "lgFU4Jyo9GdHL7w31u3zXc8RQRnHVarZWNfd0lD45GvvQtwrZ1Y1OKB4T29a79UagPHOdk1S0k0hYAYQyyNAfRUzde1HP8R+2dms"
    "75gGZEnx2tXexEN+BVjRJfC8PR1lFJa6xvsEx5uSrOZzKmoMfCwcA55SMT5jFo4+KyWg2wP5OnFPx7XTdEKvf5YhpY0krQKiq3OU"
    "u79EwjNF1xV1+iLxx2KEIyK7RSYxO1BHrKOGOEzxSUK00MA+YVHe+DvW";
constexpr const char* k_i4 =
    "aZ8tqrOeEJKt4AMqiRF/WJhIKTDC0HeDTgiJVLZ8OEtiLNj7hflFeVnNXPguxyoqkI/V7pGJtXBpH5N+RswQNA0b23aM33aH0HKH"
    "OWoGY/T/L7TQzYFGJ3vTLiXDFZg1OVqkGOMvqAgonOrHGi6IgcALyUMyCKlL5BQY23SeILJpYKolybJNwJfbjxpg0Oz+D2fr7r9X"
    "L1GMvgblu52bVQT1fR8uCRJfSsgA2OGw6k/MpKDCfMcjbR8jnZa8ROEvF4cohm7iV1788Vp2/2bdcEZRQSoaGV8pOmA9EkqzJVRA"
    "BjkDso40fnQcm2IzjBUOsX+uFExVan56/vl9VZVwB0wnee3Uxiredn0kOayiPB16yimxXCDet+M+0UKjmIlmXYpkrCDrH0dn53w+"
    "U3OHqMQxPDnUpYBxadM1eI8xWFFxzaLkvega0q0DmEquyY02yiTqo+7Q4qaJVTLgu6/8ekzPxGKRi845NL8gRgaTtM3kidDzIQpy"
    "ODZD0yeEZDY1M+3sUKHcVkhoxTQBTMyKJPc+M5DeBL3uaWMrvxuL6q8+X0xeBt+9kguPUNtIYqUgPAaXvM2i041bWHTJ0dZLyDJV"
    "OyzGaXRaF4mNkAuh4Et6Zw5PuOpMM2mI1oFKEZj7";

/// bellman's compressed vk → VerifyingKey (each point decoded with the subgroup check).
VerifyingKey vk_from_compressed(const Bytes& b) {
  constexpr std::size_t g1 = G1Affine::kCompressedBytes, g2 = G2Affine::kCompressedBytes;
  if (b.size() < 3 * g1 + 3 * g2 + 4) throw std::invalid_argument("test: vk too short");
  std::size_t at = 0;
  auto p1 = [&] {
    G1Affine p = G1Affine::from_compressed(std::span<const std::uint8_t, g1>(b.data() + at, g1));
    at += g1;
    return p;
  };
  auto p2 = [&] {
    G2Affine p = G2Affine::from_compressed(std::span<const std::uint8_t, g2>(b.data() + at, g2));
    at += g2;
    return p;
  };
  VerifyingKey vk;
  vk.alpha_g1 = p1();
  vk.beta_g1 = p1();
  vk.beta_g2 = p2();
  vk.gamma_g2 = p2();
  vk.delta_g1 = p1();
  vk.delta_g2 = p2();
  const std::uint32_t n = (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
                          (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
  at += 4;
  if (b.size() != at + std::size_t{n} * g1) throw std::invalid_argument("test: vk length does not match its count");
  for (std::uint32_t i = 0; i < n; ++i) vk.ic.push_back(p1());
  return vk;
}

/// Big-endian 32-byte inputs → the little-endian encoding of verify_proof_bytes.
Bytes inputs_le(const Bytes& be) {
  Bytes le = be;
  for (std::size_t i = 0; i < le.size(); i += 32) std::reverse(le.begin() + i, le.begin() + i + 32);
  return le;
}

struct Case {
  const char* name;  ///< gnark's table entry
  const char* vk;
  const char* proof;
  const char* inputs;
  bool valid;
  std::size_t n_inputs;
};

const Case kCases[] = {
    {"entry 0", k_vk1, k_p1, k_i1, true, 1},
    {"entry 1", k_vk1, k_p1, k_i2, false, 1},
    {"entry 3", k_vk2, k_p2, "", true, 0},
    {"entry 4", k_vk3, k_p3, k_i3, true, 1},
    {"entry 5", k_vk4, k_p4, k_i4, true, 15},
    {"entry 8", k_vk7, k_p7, "", false, 0},
    {"entry 9", k_vk8, k_p8, k_i8, false, 1},
};

/// The .vk bytes (bellperson layout) of a case, made from the compressed vk and read back by our reader.
VerifyingKey read_vk(const Case& c) {
  const VerifyingKey vk = vk_from_compressed(from_base64(c.vk));
  const Bytes file = vk.to_bytes();
  EXPECT_EQ(file.size(), 868 + 96 * vk.ic.size());
  return VerifyingKey::from_bytes(file, std::string("gnark ") + c.name + ".vk");
}

bool verify_case(const VerifyingKey& vk, const Bytes& proof, const Bytes& inputs_be) {
  return verify_proof_bytes(prepare_verifying_key(vk), proof, inputs_le(inputs_be));
}

TEST(OutsideVectors, GnarkBellmanSetDecodesWithExactShapes) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const Bytes vkc = from_base64(c.vk), proof = from_base64(c.proof), in = from_base64(c.inputs);
    const VerifyingKey vk = read_vk(c);
    EXPECT_EQ(vkc.size(), 436 + 48 * vk.ic.size());
    EXPECT_EQ(vk.ic.size(), c.n_inputs + 1);
    EXPECT_EQ(in.size(), 32 * c.n_inputs);
    ASSERT_EQ(proof.size(), Proof::kBytes);
    // Our encoders give back the outside bytes exactly (ZCash compressed flags and coordinates).
    const Proof p = Proof::from_bytes(std::span<const std::uint8_t, Proof::kBytes>(proof.data(), Proof::kBytes));
    const auto again = p.to_bytes();
    EXPECT_TRUE(std::equal(again.begin(), again.end(), proof.begin()));
    const auto alpha = vk.alpha_g1.to_compressed();
    EXPECT_TRUE(std::equal(alpha.begin(), alpha.end(), vkc.begin()));
    const auto ic_last = vk.ic.back().to_compressed();
    EXPECT_TRUE(std::equal(ic_last.begin(), ic_last.end(), vkc.end() - 48));
  }
}

TEST(OutsideVectors, GnarkBellmanSetVerdicts) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(verify_case(read_vk(c), from_base64(c.proof), from_base64(c.inputs)), c.valid);
  }
}

TEST(OutsideVectors, ValidProofsRefusedWithAModifiedInput) {
  for (const Case& c : kCases) {
    if (!c.valid) continue;
    SCOPED_TRACE(c.name);
    const VerifyingKey vk = read_vk(c);
    const Bytes proof = from_base64(c.proof);
    Bytes in = from_base64(c.inputs);
    if (c.n_inputs == 0) {
      // No input to change: another entry's proof for this key is refused instead.
      EXPECT_FALSE(verify_case(vk, from_base64(k_p1), in));
      continue;
    }
    ASSERT_TRUE(verify_case(vk, proof, in));
    in[31] ^= 1;  // x ± 1 (big-endian: last byte is the least significant)
    EXPECT_FALSE(verify_case(vk, proof, in));
    in[31] ^= 1;
    in[1] ^= 0x01;  // bit 240 (the top byte is unchanged, so still < r)
    EXPECT_FALSE(verify_case(vk, proof, in));
    // Read as little-endian (the wrong byte order) the inputs are other numbers: refused, as false
    // or, where one reads as >= r, as NotCanonical.
    bool accepted = false;
    try {
      accepted = verify_proof_bytes(prepare_verifying_key(vk), proof, from_base64(c.inputs));
    } catch (const ProoflineError& e) {
      EXPECT_EQ(e.code(), Error::NotCanonical) << e.what();
    }
    EXPECT_FALSE(accepted);
  }
}

TEST(OutsideVectors, WrongInputCountAndTamperedProofRefused) {
  const Case& c = kCases[0];
  const VerifyingKey vk = read_vk(c);
  const PreparedVerifyingKey pvk = prepare_verifying_key(vk);
  Bytes proof = from_base64(c.proof);
  try {
    verify_proof_bytes(pvk, proof, Bytes{});
    FAIL() << "no inputs accepted for a key with one";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("got 0, expected 1"), std::string::npos) << e.what();
  }
  // C replaced by A (both valid G1 points): refused.
  std::copy(proof.begin(), proof.begin() + 48, proof.end() - 48);
  EXPECT_FALSE(verify_case(vk, proof, from_base64(c.inputs)));
}

}  // namespace
}  // namespace proofline::groth16
