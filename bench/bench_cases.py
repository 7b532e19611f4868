"""The --case argument of the comparison scripts in bench/, as mixer-bench
writes it (OpBench::torchCase's default format). No third-party imports:
every script's Python can load it."""


def parse_case(spec):
    """'la-L512:B=1,L=512,decay' -> ('la-L512', {'B': 1, 'L': 512}, ['decay'])"""
    name, _, rest = spec.partition(":")
    dims, flags = {}, []
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if eq:
            dims[key] = int(value)
        else:
            flags.append(key)
    return name, dims, flags


def shape_string(dims, flags):
    """The shapes field, as mixer-bench prints it ("B=1 L=512 decay")."""
    return " ".join([f"{k}={v}" for k, v in dims.items()] + list(flags))
