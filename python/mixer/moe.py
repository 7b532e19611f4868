"""Mixture-of-experts ops on numpy arrays. The token count T (and the T*k
slots) are dynamic in the compiled code; E, k and the feature dims are
static. Float operands are float32, expert ids and permutations int32,
group sizes int32 or int64. With return_vjp=True each returns (outputs, vjp)
(docs/Python.md, "Gradients")."""

import numpy as np

from ._build import Call, check_positive_int

_SIZES = (np.int32, np.int64)
_TOKENS = ("T", "S")  # S = T * k, the assignment slots


def grouped_matmul(lhs, rhs, group_sizes, *, options="", return_vjp=False):
    """out[r] = lhs[r] @ rhs[e] for the rows r of group e (mixer.grouped_matmul).

    lhs [T, K] with rows sorted by group, rhs [E, K, N], group_sizes [E]
    (the rows of each group, in order; rows past their sum are 0) -> [T, N].
    """
    call = Call(("T",))
    ins = [call.arg(lhs, "lhs", "TK"), call.arg(rhs, "rhs", "EKN"),
           call.arg(group_sizes, "group_sizes", "E", _SIZES)]
    call.out("out", "TN")
    return call.run("grouped_matmul", call.op("mixer.grouped_matmul", ins), options,
                    return_vjp, ("lhs", "rhs", "group_sizes"))


def grouped_swiglu(x, w_gate, w_up, group_sizes, *, options="", return_vjp=False):
    """out[r] = silu(x[r] @ w_gate[e]) * (x[r] @ w_up[e]) for the rows r of
    group e (mixer.grouped_swiglu).

    x [T, K], w_gate and w_up [E, K, F], group_sizes [E] -> [T, F].
    """
    call = Call(("T",))
    ins = [call.arg(x, "x", "TK"), call.arg(w_gate, "w_gate", "EKF"),
           call.arg(w_up, "w_up", "EKF"),
           call.arg(group_sizes, "group_sizes", "E", _SIZES)]
    call.out("out", "TF")
    return call.run("grouped_swiglu", call.op("mixer.grouped_swiglu", ins), options,
                    return_vjp, ("x", "w_gate", "w_up", "group_sizes"))


def _check_k(k, experts):
    k = check_positive_int(k, "k")
    if k > experts:
        raise ValueError(f"argument 'k' is {k}, more than the E = {experts} experts")
    return k


def topk_router(logits, k, *, normalize=False, options="", return_vjp=False):
    """The k most probable experts of each token (mixer.topk_router).

    logits [T, E] -> (weights [T, k] float32, expert_ids [T, k] int32),
    experts in descending softmax probability p (ties: lower index first);
    weights are p, or p / (sum of the k selected p) with normalize.
    """
    call = Call(("T",))
    ins = [call.arg(logits, "logits", "TE")]
    k = _check_k(k, call["E"])
    call.bind("k", k)
    call.out("weights", "Tk")
    call.out("expert_ids", "Tk", np.int32)
    attrs = f"k({k})" + (" normalize" if normalize else "")
    return call.run("topk_router", call.op("mixer.topk_router", ins, attrs=attrs), options,
                    return_vjp, ("logits",))


def moe_dispatch(x, expert_ids, num_experts, *, options="", return_vjp=False):
    """Sorts the token-expert assignments by expert (mixer.moe_dispatch).

    x [T, K], expert_ids [T, k] int32 in [0, num_experts) -> (sorted
    [T*k, K], group_sizes [E] int64, permutation [T*k] int32); slot
    a = t * k + j goes to row r with permutation[r] = a, stably by expert.
    """
    num_experts = check_positive_int(num_experts, "num_experts")
    call = Call(_TOKENS)
    ins = [call.arg(x, "x", "TK"), call.arg(expert_ids, "expert_ids", "Tk", (np.int32,))]
    call.bind("S", call["T"] * call["k"])
    call.bind("E", num_experts)
    call.out("sorted", "SK")
    call.out("group_sizes", "E", np.int64)
    call.out("permutation", "S", np.int32)
    return call.run("moe_dispatch", call.op("mixer.moe_dispatch", ins,
                                            attrs=f"num_experts({num_experts})"), options,
                    return_vjp, ("x", "expert_ids"))


def moe_combine(expert_out, permutation, weights, *, options="", return_vjp=False):
    """out[t] = sum_j weights[t, j] expert_out[r] with permutation[r] = t*k + j
    (mixer.moe_combine).

    expert_out [T*k, N], permutation [T*k] int32, weights [T, k] -> [T, N].
    """
    call = Call(_TOKENS)
    ins = [call.arg(expert_out, "expert_out", "SN"),
           call.arg(permutation, "permutation", "S", (np.int32,)),
           call.arg(weights, "weights", "Tk")]
    if call["S"] != call["T"] * call["k"]:
        raise ValueError(f"'expert_out' dim 0 (T*k) is {call['S']}, but 'weights' "
                         f"has T*k = {call['T']} * {call['k']}")
    call.out("out", "TN")
    return call.run("moe_combine", call.op("mixer.moe_combine", ins), options,
                    return_vjp, ("expert_out", "permutation", "weights"))


def moe_ffn(x, router_logits, w_gate, w_up, w_down, *, top_k=2, options="",
            return_vjp=False):
    """A dropless MoE layer with SwiGLU experts, compiled as one module:

        weights, ids = top-k of router_logits, softmax over the k selected
                       logits (as in Mixtral)
        y[t] = sum_j weights[t, j] * expert_{ids[t, j]}(x[t]),
        expert_e(x) = (silu(x w_gate[e]) * (x w_up[e])) w_down[e]

    x [T, K], router_logits [T, E], w_gate and w_up [E, K, F],
    w_down [E, F, K] -> y [T, K].
    """
    call = Call(_TOKENS)
    args = [call.arg(x, "x", "TK"), call.arg(router_logits, "router_logits", "TE"),
            call.arg(w_gate, "w_gate", "EKF"), call.arg(w_up, "w_up", "EKF"),
            call.arg(w_down, "w_down", "EFK")]
    k = _check_k(top_k, call["E"])
    call.bind("k", k)
    call.bind("S", call["T"] * k)
    y = call.out("y", "TK")
    t = call.type
    i32 = np.int32

    def empty(dims, dtype=np.float32):
        return f"tensor.empty({'%s' if 'S' in dims else '%t'}) : {t(dims, dtype)}"

    body = f"""\
  %c0 = arith.constant 0 : index
  %ck = arith.constant {k} : index
  %t = tensor.dim {args[0]}, %c0 : {t("TK")}
  %s = arith.muli %t, %ck : index
  %w0 = {empty("Tk")}
  %i0 = {empty("Tk", i32)}
  %w, %ids = mixer.topk_router k({k}) normalize ins({args[1]} : {t("TE")})
      outs(%w0, %i0 : {t("Tk")}, {t("Tk", i32)}) -> {t("Tk")}, {t("Tk", i32)}
  %x0 = {empty("SK")}
  %g0 = tensor.empty() : {t("E", np.int64)}
  %p0 = {empty("S", i32)}
  %xs, %sizes, %perm = mixer.moe_dispatch num_experts({call["E"]})
      ins({args[0]}, %ids : {t("TK")}, {t("Tk", i32)})
      outs(%x0, %g0, %p0 : {t("SK")}, {t("E", np.int64)}, {t("S", i32)})
      -> {t("SK")}, {t("E", np.int64)}, {t("S", i32)}
  %h0 = {empty("SF")}
  %h = mixer.grouped_swiglu ins(%xs, {args[2]}, {args[3]}, %sizes : {t("SK")}, {t("EKF")},
      {t("EKF")}, {t("E", np.int64)}) outs(%h0 : {t("SF")}) -> {t("SF")}
  %e0 = {empty("SK")}
  %e = mixer.grouped_matmul ins(%h, {args[4]}, %sizes : {t("SF")}, {t("EFK")},
      {t("E", np.int64)}) outs(%e0 : {t("SK")}) -> {t("SK")}
  %r = mixer.moe_combine ins(%e, %perm, %w : {t("SK")}, {t("S", i32)}, {t("Tk")})
      outs({y} : {t("TK")}) -> {t("TK")}
  return %r : {t("TK")}
"""
    return call.run("moe_ffn", body, options, return_vjp,
                    ("x", "router_logits", "w_gate", "w_up", "w_down"))
