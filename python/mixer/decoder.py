"""Token-by-token decoding with the four scans: a prefill over any number
of tokens, then one compiled one-token step per token, carrying the state."""

import numpy as np

from . import ops
from ._build import check_positive_int

# op -> (function, its attributes, the name of the argument whose dim 1 is L)
_SCANS = {
    "ssd": (ops.ssd, ("chunk_size",), "x"),
    "selective_scan": (ops.selective_scan, ("delta_softplus",), "u"),
    "linear_attention": (ops.linear_attention, ("window", "scale", "chunk_size"), "q"),
    "gated_delta_rule": (ops.gated_delta_rule, ("scale", "chunk_size"), "q"),
}


class Decoder:
    """Decodes with the scan `op` ("ssd", "selective_scan",
    "linear_attention" or "gated_delta_rule") from `init_state` (zeros when
    None), with the op's attributes (chunk_size, delta_softplus, window,
    scale; and `options` for the CPU pipeline).

    `prefill(*args, **kwargs)` takes the op's numpy arguments (without
    init_state) over L >= 0 tokens and returns the per-token outputs;
    `step(*args, **kwargs)` takes them with L = 1 and runs a separate
    module compiled for one token (the recurrent form, O(1) in the context
    length). Both carry `state`, the state after the last token (None
    before the first call without an init_state).

    Linear attention with window w > 0 reads, at token t, the state of
    token t - w - 1: the decoder also keeps that lagged state and the keys,
    values and log-decays of the last w tokens.
    """

    def __init__(self, op, init_state=None, **attributes):
        if op not in _SCANS:
            raise ValueError(f"argument 'op' must be one of {', '.join(_SCANS)}, "
                             f"got {op!r}")
        self.op = op
        self.function, names, self._length_arg = _SCANS[op]
        for name in attributes:
            if name not in names + ("options",):
                raise ValueError(f"{op} has no attribute '{name}'; it has "
                                 f"{', '.join(names)} and options")
        self.attributes = attributes
        self.state = init_state
        self.window = attributes.get("window", 0) if op == "linear_attention" else 0
        if self.window:
            check_positive_int(self.window, "window", minimum=0)
            self._lagged = init_state  # the state of token t - w - 1
            self._recent = None  # k, v, log_decay of the last w tokens
            self._oldest = 0  # the ring buffer's first token

    def _call(self, args, kwargs, one_token):
        if "init_state" in kwargs:
            raise ValueError("argument 'init_state' is the decoder's state; give it "
                             "to mixer.Decoder")
        if self.window:
            return self._windowed(*args, one_token=one_token, **kwargs)
        out, self.state = self.function(*args, init_state=self.state,
                                        _one_token=one_token, **self.attributes,
                                        **kwargs)
        return out

    def prefill(self, *args, **kwargs):
        return self._call(args, kwargs, one_token=False)

    def step(self, *args, **kwargs):
        first = args[0] if args else kwargs.get(self._length_arg)
        if not isinstance(first, np.ndarray) or first.ndim < 2 or first.shape[1] != 1:
            shape = getattr(first, "shape", None)
            raise ValueError(f"step takes one token: argument '{self._length_arg}' "
                             f"must have L = 1 (dim 1), got shape {shape}")
        return self._call(args, kwargs, one_token=True)

    def _windowed(self, q, k, v, *, log_decay=None, one_token):
        """Linear attention with a window: o_t = scale S_{t-w-1}^T q_t."""
        attention = ops.linear_attention
        for value, name in ((q, "q"), (k, "k"), (v, "v")):
            if not isinstance(value, np.ndarray) or value.ndim != 4:
                raise ValueError(f"argument '{name}' must be a numpy array of rank 4")
        if log_decay is None:
            log_decay = np.zeros(q.shape[:3], dtype=np.float32)
        w, length = self.window, q.shape[1]
        if self._recent is None:  # the tokens before the first: no change
            self._recent = [np.zeros((k.shape[0], w) + a.shape[2:], dtype=np.float32)
                            for a in (k, v, log_decay)]
        if one_token:
            # One token: o_t from the lagged state advanced by the oldest
            # recent token (an L = 1 call with w > 0 reads its init), then the
            # current state advanced by token t.
            oldest = [a[:, self._oldest:self._oldest + 1] for a in self._recent]
            o, self._lagged = attention(q, oldest[0], oldest[1], log_decay=oldest[2],
                                        init_state=self._lagged, _one_token=True,
                                        **self.attributes)
            _, self.state = attention(np.zeros_like(q), k, v, log_decay=log_decay,
                                      init_state=self.state, _one_token=True,
                                      **self.attributes)
            for buffer, token in zip(self._recent, (k, v, log_decay)):
                buffer[:, self._oldest] = token[:, 0]
            self._oldest = (self._oldest + 1) % w
            return o
        # L tokens: the w recent tokens (with q = 0) then the new ones, from
        # the lagged state; the first L of them advance the lagged state.
        recent = [np.roll(a, -self._oldest, axis=1) for a in self._recent]
        keys, values, decays = (np.concatenate([r, a], axis=1)
                                for r, a in zip(recent, (k, v, log_decay)))
        queries = np.concatenate([np.zeros((q.shape[0], w) + q.shape[2:], np.float32), q],
                                 axis=1)
        o, self.state = attention(queries, keys, values, log_decay=decays,
                                  init_state=self._lagged, **self.attributes)
        _, self._lagged = attention(queries[:, :length], keys[:, :length],
                                    values[:, :length], log_decay=decays[:, :length],
                                    init_state=self._lagged, **self.attributes)
        self._recent = [np.ascontiguousarray(a[:, length:]) for a in (keys, values, decays)]
        self._oldest = 0
        return o[:, w:]
