#!/usr/bin/env bash
# Degenerate verifying keys are refused by the `proofline` command (issue 21 item 4): a key with
# γ₂ = δ₂ = infinity (which would accept the proof (α₁, β₂, any C) for every public input) or an IC
# point at infinity, as a bellperson .vk, inside a .params, as a snarkjs vk.json and inside a .zkey,
# each exits 3 with the file and the field named. The keys are made here from real ones (a `setup`
# of the built-in mul circuit; the toy circom files, fuzz/corpus/{zkey,wtns,snarkjs_vk}/toy).
#
# Usage: vk_check_cli.sh <proofline executable> <repository root>
set -uo pipefail
P=$1
ROOT=$2
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

cp "$ROOT/fuzz/corpus/zkey/toy" toy.zkey
cp "$ROOT/fuzz/corpus/wtns/toy" toy.wtns
cp "$ROOT/fuzz/corpus/snarkjs_vk/toy" toy_vk.json
check "setup mul" 0 "$P" setup --circuit mul --params m.params --vk m.vk --seed 1
check "prove mul" 0 "$P" prove --circuit mul --params m.params --proof m.proof --public m.json
check "real .vk verifies" 0 "$P" verify --vk m.vk --proof m.proof --public m.json

# .vk / .params layout: alpha_g1 @0, beta_g1 @96, beta_g2 @192, gamma_g2 @384, delta_g1 @576,
# delta_g2 @672 (G2: 192 bytes), u32 @864, ic from 868 (96 bytes each). Infinity = 0x40, then zeros.
python3 - <<'PY'
def patch(src, dst, spans):
    b = bytearray(open(src, "rb").read())
    for at, n in spans:
        b[at:at + n] = b"\x40" + bytes(n - 1)
    open(dst, "wb").write(b)
patch("m.vk", "gd.vk", [(384, 192), (672, 192)])
patch("m.vk", "ic.vk", [(868 + 96, 96)])
patch("m.params", "gd.params", [(384, 192), (672, 192)])
PY
check "vk with gamma_2 = delta_2 = infinity" 3 "$P" verify --vk gd.vk --proof m.proof --public m.json
expect_in "  file and field named" err.txt "gd\.vk.*gamma_2 is the point at infinity"
check "vk with IC[1] at infinity" 3 "$P" verify --vk ic.vk --proof m.proof --public m.json
expect_in "  IC[1] named" err.txt "ic\.vk.*IC\[1\] is the point at infinity"
check "params with gamma_2 = delta_2 = infinity" 3 "$P" verify --params gd.params --proof m.proof --public m.json
expect_in "  file and field named" err.txt "gd\.params.*gamma_2 is the point at infinity"

# snarkjs: vk.json with infinity (["0","0"],["1","0"],["0","0"]) and a zkey whose γ2 is all zero bytes.
check "snarkjs prove" 0 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof p.json --public pub.json
check "real vk.json verifies" 0 "$P" verify --vk toy_vk.json --proof p.json --public pub.json
python3 - <<'PY'
import json, struct
vk = json.load(open("toy_vk.json"))
inf2 = [["0", "0"], ["1", "0"], ["0", "0"]]
vk["vk_gamma_2"] = inf2
vk["vk_delta_2"] = inf2
json.dump(vk, open("gd_vk.json", "w"))
vk = json.load(open("toy_vk.json"))
vk["IC"][2] = ["0", "1", "0"]
json.dump(vk, open("ic_vk.json", "w"))
# zkey: container header (12 bytes), sections {u32 id, u64 len, data}; section 2 = groth16 header:
# n8q, q[48], n8r, r[32], nVars, nPublic, domainSize (100 bytes), alpha1 G1, beta1 G1, beta2 G2, gamma2 G2.
b = bytearray(open("toy.zkey", "rb").read())
n = struct.unpack_from("<I", b, 8)[0]
p = 12
for _ in range(n):
    sid, ln = struct.unpack_from("<IQ", b, p)
    if sid == 2:
        g = p + 12 + 100 + 96 + 96 + 192
        b[g:g + 192] = bytes(192)
    p += 12 + ln
open("gd.zkey", "wb").write(b)
PY
check "vk.json with gamma_2 = delta_2 = infinity" 3 "$P" verify --vk gd_vk.json --proof p.json --public pub.json
expect_in "  file and field named" err.txt "gd_vk\.json.*gamma_2 is the point at infinity"
check "vk.json with IC[2] at infinity" 3 "$P" verify --vk ic_vk.json --proof p.json --public pub.json
expect_in "  IC[2] named" err.txt "ic_vk\.json.*IC\[2\] is the point at infinity"
check "zkey with gamma_2 at infinity" 3 "$P" prove --zkey gd.zkey --wtns toy.wtns --proof q.json --public q.pub.json
expect_in "  file and field named" err.txt "gd\.zkey.*gamma_2 is the point at infinity"

echo "failures: $fails"
[[ $fails -eq 0 ]]
