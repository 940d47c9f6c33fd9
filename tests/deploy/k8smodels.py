"""Kubernetes objects read into the official client's models (``kubernetes.client``), the
schema the API server holds them to: a missing required field or a wrong type fails to load,
and a field the API does not know (a typo, a wrong level) is caught by writing the model back
out and comparing with what went in, since loading drops unknown fields silently."""

from __future__ import annotations

from typing import Any

from kubernetes.client import ApiClient

__all__ = ["load", "model_name"]

_API = ApiClient()


def model_name(api_version: str, kind: str) -> str:
    """The client's model class for an object: ``apps/v1`` ``Deployment`` is V1Deployment."""
    version = api_version.rpartition("/")[2]
    return version[0].upper() + version[1:] + kind


def load(obj: dict[str, Any], where: str = "") -> Any:
    """``obj`` as its model, or AssertionError naming what the schema refused or dropped."""
    data = {key: value for key, value in obj.items() if not key.startswith("_")}
    name = model_name(data["apiVersion"], data["kind"])
    try:
        loaded = _API._ApiClient__deserialize(data, name)  # type: ignore[attr-defined]
    except Exception as error:
        raise AssertionError(f"{where or name}: not a valid {name}: {error}") from None
    back = _API.sanitize_for_serialization(loaded)
    dropped = _difference(data, back, name)
    assert not dropped, f"{where or name}: fields the {name} schema does not have: {dropped}"
    return loaded


def _difference(sent: Any, kept: Any, path: str) -> list[str]:
    if isinstance(sent, dict):
        if not isinstance(kept, dict):
            return [path]
        found = []
        for key, value in sent.items():
            if key not in kept:
                found.append(f"{path}.{key}")
            else:
                found += _difference(value, kept[key], f"{path}.{key}")
        return found
    if isinstance(sent, list):
        if not isinstance(kept, list) or len(kept) != len(sent):
            return [path]
        return [
            d
            for i, (a, b) in enumerate(zip(sent, kept, strict=True))
            for d in _difference(a, b, f"{path}[{i}]")
        ]
    return []
