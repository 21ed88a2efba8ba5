#!/usr/bin/env python3
"""Reference vectors for jn's schema hash (lib/schema/hash.ts).

`calculate_schema_hash` below is the seed's function (seeds/000_*, "Hash
Calculation") with the relaxations SPEC section 5 adds, written with `.get`:
a property without "type" (or a property schema that is not an object, such as
`true`) contributes None, an inputSchema without "properties" contributes {},
one without "required" contributes [], a tool without "inputSchema" counts as {}.
For a well-formed schema the result is identical to the seed's.

    python3 tests/schema/vectors.py > tests/schema/vectors.json   # fixed vectors
    python3 tests/schema/vectors.py --stdin < lists.json          # [[tool, ...], ...] -> results
"""

import hashlib
import json
import sys


def tool_sig(tool):
    schema = tool.get("inputSchema") or {}
    return {
        "name": tool["name"],
        "required": sorted(schema.get("required", [])),
        "types": {
            param: (prop.get("type") if isinstance(prop, dict) else None)
            for param, prop in schema.get("properties", {}).items()
        },
    }


def calculate_schema_hash(tools):
    hash_input = []
    for tool in sorted(tools, key=lambda t: t["name"]):
        hash_input.append(json.dumps(tool_sig(tool), sort_keys=True))
    return hashlib.md5("\n".join(hash_input).encode()).hexdigest()


def result(tools):
    lines = [json.dumps(tool_sig(t), sort_keys=True) for t in sorted(tools, key=lambda t: t["name"])]
    tool_hashes = {}
    for tool, line in zip(sorted(tools, key=lambda t: t["name"]), lines):
        tool_hashes[tool["name"]] = hashlib.md5(line.encode()).hexdigest()
    return {"hash": calculate_schema_hash(tools), "lines": lines, "toolHashes": tool_hashes}


def obj(properties=None, required=None):
    schema = {"type": "object"}
    if properties is not None:
        schema["properties"] = properties
    if required is not None:
        schema["required"] = required
    return schema


S = {"type": "string"}

CASES = {
    "an empty tool list hashes the empty string": [],
    "the seed's biomcp v1 profile": [
        {"name": "search", "inputSchema": obj({"gene": S, "disease": S}, ["gene"])},
        {"name": "trial_search", "inputSchema": obj(
            {"gene": S, "phase": {"type": "string", "enum": ["PHASE1", "PHASE2", "PHASE3"]},
             "limit": {"type": "integer", "default": 10}}, ["gene"])},
    ],
    "non-ASCII tool and parameter names are escaped as \\uXXXX": [
        {"name": "recherche_é", "inputSchema": obj({"gène": S, "中文": {"type": "integer"}}, ["gène"])},
        {"name": "工具", "inputSchema": obj({"😀emoji": S, "naïve": {"type": "boolean"}}, ["😀emoji"])},
        {"name": "😀", "inputSchema": obj({"q": S})},
    ],
    "list types stay lists in their order": [
        {"name": "t", "inputSchema": obj({
            "a": {"type": ["string", "null"]},
            "b": {"type": ["null", "integer", "string"]},
            "c": {"type": []},
        }, ["a"])},
    ],
    "properties without a type contribute null": [
        {"name": "t", "inputSchema": obj({
            "any": {},
            "union": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "ref": {"$ref": "#/$defs/X"},
            "bool_schema": True,
            "explicit_null": {"type": None},
            "typed": S,
        })},
    ],
    "tools without properties or required contribute {} and []": [
        {"name": "no_properties", "inputSchema": {"type": "object"}},
        {"name": "no_required", "inputSchema": obj({"x": S})},
        {"name": "empty_schema", "inputSchema": {}},
        {"name": "no_input_schema"},
        {"name": "required_only", "inputSchema": {"type": "object", "required": ["ghost"]}},
    ],
    "tool names sort by code point, case and unicode included": [
        {"name": n, "inputSchema": obj({})}
        for n in ["Zeta", "alpha", "Alpha", "é", "e\u0301", "\uff41", "😀", "\ue000", "\uffff",
                  "a", "a ", "a_b", "a-b", "a.b", "A_b", "_a", "0a", "\u00e9\u0301"]
    ],
    "required names sort by code point and keep duplicates": [
        {"name": "t", "inputSchema": obj(
            {k: S for k in ["b", "B", "a", "é", "😀", "\ue000", "a1", "a10", "a2"]},
            ["b", "B", "a", "é", "😀", "\ue000", "a10", "a2", "a1", "a"])},
    ],
    "quotes, backslashes, control characters and slashes are escaped like Python": [
        {"name": 'say "hi"', "inputSchema": obj({"back\\slash": S, "tab\there": S, "line\nbreak": S})},
        {"name": "ctl\x00\x01\x1f\x7f", "inputSchema": obj({"slash/": S, "cr\r\b\f": S, "\u2028": S})},
    ],
    "malformed type values are serialised as JSON": [
        {"name": "t", "inputSchema": obj({
            "int": {"type": 1}, "neg": {"type": -7}, "float": {"type": 1.5},
            "small": {"type": 1.5e-7}, "tiny": {"type": 0.0001}, "frac": {"type": 123.456},
            "bool": {"type": True}, "false": {"type": False},
            "obj": {"type": {"b": 1, "a": [1, "x", None], "é": {}}},
            "nested_list": {"type": [["string"], {"z": 0, "Z": 1}]},
        })},
    ],
    "a malformed required sorts as Python sorts it": [
        {"name": "string", "inputSchema": obj({"gene": S}, "gene")},
        {"name": "object", "inputSchema": obj({"b": S, "a": S}, {"b": True, "a": 1})},
        {"name": "numbers", "inputSchema": obj({}, [3, True, 0, 2.5, -1])},
        {"name": "lists", "inputSchema": obj({}, [["b"], ["a", "z"], ["a"]])},
        {"name": "astral", "inputSchema": obj({}, "\ue000😀a")},
    ],
    "a parameter named __proto__ is a plain key": [
        {"name": "t", "inputSchema": obj({"__proto__": S, "constructor": {"type": "integer"}}, ["__proto__"])},
    ],
    "duplicate and duplicate-looking tool names keep a stable order": [
        {"name": "dup", "inputSchema": obj({"first": S})},
        {"name": "Dup", "inputSchema": obj({})},
        {"name": "dup", "inputSchema": obj({"second": S})},
        {"name": "dup ", "inputSchema": obj({})},
        {"name": "du\u0070", "inputSchema": obj({"third": S})},
    ],
}


def main():
    if sys.argv[1:] == ["--stdin"]:
        lists = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        sys.stdout.write(json.dumps([result(tools) for tools in lists]))
        return
    vectors = [{"name": name, "tools": tools, **result(tools)} for name, tools in CASES.items()]
    sys.stdout.write(json.dumps(vectors, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
