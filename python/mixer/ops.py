"""The four scans on numpy arrays: each checks its arguments, builds the
MLIR of its op with B and L dynamic, compiles it once per remaining shapes
and attributes, and calls it. All arrays are float32. With return_vjp=True
each returns (outputs, vjp) (docs/Python.md, "Gradients")."""

import numpy as np

from ._build import Call, check_positive_int, float_literal

# `_one_token` (used by mixer.Decoder.step) compiles with L = 1 static: the
# lowering then uses the recurrent form, O(1) in the context length.


def _sequence(one_token):
    return ("B",) if one_token else ("B", "L")


def _init(call, init_state, dims):
    if init_state is None:
        return ()
    return (("init", call.arg(init_state, "init_state", dims, ssa="init")),)


def ssd(x, log_a, b, c, *, init_state=None, chunk_size=64, options="",
        return_vjp=False, _one_token=False):
    """Mamba-2 state space duality scan (mixer.ssd).

    x [B, L, H, P], log_a [B, L, H] (dt * A, <= 0), b and c [B, L, G, N]
    with H % G == 0, optional init_state [B, H, P, N]. Per head h of group
    g = h / (H / G):

        S_t = exp(log_a_t) S_{t-1} + x_t b_t^T   (S_{-1} = init_state or 0)
        y_t = S_t c_t

    Returns (y [B, L, H, P], final_state [B, H, P, N]). `options` go to the
    CPU pipeline ("num-threads=2").
    """
    chunk_size = check_positive_int(chunk_size, "chunk_size")
    call = Call(_sequence(_one_token))
    ins = [call.arg(x, "x", "BLHP"), call.arg(log_a, "log_a", "BLH"),
           call.arg(b, "b", "BLGN"), call.arg(c, "c", "BLGN")]
    clauses = _init(call, init_state, "BHPN")
    if call["G"] == 0 or call["H"] % call["G"]:
        raise ValueError(f"heads H = {call['H']} of 'x' must be a multiple of "
                         f"groups G = {call['G']} of 'b' and 'c'")
    call.out("y", "BLHP")
    call.out("final_state", "BHPN")
    body = call.op("mixer.ssd", ins, clauses, f"chunk_size({chunk_size})")
    return call.run("ssd", body, options, return_vjp,
                    ("x", "log_a", "b", "c", "init_state"))


def selective_scan(u, delta, A, b, c, *, D=None, z=None, delta_bias=None,
                   delta_softplus=False, init_state=None, options="",
                   return_vjp=False, _one_token=False):
    """Mamba-1 selective scan (mixer.selective_scan).

    u and delta [B, L, D], A [D, N], b and c [B, L, G, N] with D % G == 0,
    optional D [D] (skip), z [B, L, D] (gate), delta_bias [D] and
    init_state [B, D, N]. Per channel d of group g = d / (D / G):

        dt_t   = delta_t + delta_bias, then softplus(dt_t) if delta_softplus
        h_t    = exp(dt_t A) h_{t-1} + dt_t u_t b_t     (h_{-1} = init_state or 0)
        y_t    = (sum_n h_t c_t + D u_t) * silu(z_t)

    Returns (y [B, L, D], final_state [B, D, N]).
    """
    call = Call(_sequence(_one_token))
    ins = [call.arg(u, "u", "BLD"), call.arg(delta, "delta", "BLD"),
           call.arg(A, "A", "DN"), call.arg(b, "b", "BLGN"), call.arg(c, "c", "BLGN")]
    clauses = []
    for keyword, value, name, dims in (("D_skip", D, "D", "D"), ("z", z, "z", "BLD"),
                                       ("delta_bias", delta_bias, "delta_bias", "D")):
        if value is not None:
            clauses.append((keyword, call.arg(value, name, dims, ssa=keyword)))
    clauses += _init(call, init_state, "BDN")
    if call["G"] == 0 or call["D"] % call["G"]:
        raise ValueError(f"channels D = {call['D']} of 'u' must be a multiple of "
                         f"groups G = {call['G']} of 'b' and 'c'")
    call.out("y", "BLD")
    call.out("final_state", "BDN")
    attrs = "delta_softplus" if delta_softplus else ""
    body = call.op("mixer.selective_scan", ins, clauses, attrs)
    return call.run("selective_scan", body, options, return_vjp,
                    ("u", "delta", "A", "b", "c", "D", "z", "delta_bias", "init_state"))


def linear_attention(q, k, v, *, log_decay=None, init_state=None, window=0,
                     scale=1.0, chunk_size=64, options="", return_vjp=False,
                     _one_token=False):
    """Causal linear attention with optional decay and window
    (mixer.linear_attention).

    q and k [B, L, H, K], v [B, L, H, V], optional log_decay [B, L, H]
    (<= 0) and init_state [B, H, K, V]. Per head, with w = window:

        S_t = exp(log_decay_t) S_{t-1} + k_t v_t^T   (S_j for j < 0: init_state or 0)
        o_t = scale * S_{t-w-1}^T q_t if w > 0, else scale * S_t^T q_t

    Returns (o [B, L, H, V], final_state [B, H, K, V]).
    """
    chunk_size = check_positive_int(chunk_size, "chunk_size")
    window = check_positive_int(window, "window", minimum=0)
    call = Call(_sequence(_one_token))
    ins = [call.arg(q, "q", "BLHK"), call.arg(k, "k", "BLHK"), call.arg(v, "v", "BLHV")]
    clauses = []
    if log_decay is not None:
        clauses.append(("log_decay", call.arg(log_decay, "log_decay", "BLH")))
    clauses += _init(call, init_state, "BHKV")
    call.out("o", "BLHV")
    call.out("final_state", "BHKV")
    attrs = f"chunk_size({chunk_size}) window({window}) scale({float_literal(scale)})"
    body = call.op("mixer.linear_attention", ins, clauses, attrs)
    return call.run("linear_attention", body, options, return_vjp,
                    ("q", "k", "v", "log_decay", "init_state"))


def gated_delta_rule(q, k, v, g, beta, *, init_state=None, scale=None,
                     chunk_size=64, options="", return_vjp=False, _one_token=False):
    """Gated DeltaNet scan (mixer.gated_delta_rule).

    q and k [B, L, H, K], v [B, L, H, V], g [B, L, H] (log gate, <= 0),
    beta [B, L, H], optional init_state [B, H, K, V]; scale defaults to
    K**-0.5. Per head:

        S_t = exp(g_t) (I - beta_t k_t k_t^T) S_{t-1} + beta_t k_t v_t^T
        o_t = scale * S_t^T q_t

    Returns (o [B, L, H, V], final_state [B, H, K, V]).
    """
    chunk_size = check_positive_int(chunk_size, "chunk_size")
    call = Call(_sequence(_one_token))
    ins = [call.arg(q, "q", "BLHK"), call.arg(k, "k", "BLHK"), call.arg(v, "v", "BLHV"),
           call.arg(g, "g", "BLH"), call.arg(beta, "beta", "BLH")]
    clauses = _init(call, init_state, "BHKV")
    if scale is None:
        scale = call["K"] ** -0.5 if call["K"] else 1.0
    call.out("o", "BLHV")
    call.out("final_state", "BHKV")
    attrs = f"chunk_size({chunk_size}) scale({float_literal(scale)})"
    body = call.op("mixer.gated_delta_rule", ins, clauses, attrs)
    return call.run("gated_delta_rule", body, options, return_vjp,
                    ("q", "k", "v", "g", "beta", "init_state"))
