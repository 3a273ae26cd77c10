# The Translate Toolkit side of the format oracle: reads files with a toolkit store class and prints their units as JSON.
#
# Input (standard input, JSON): {"requests": [{"file": path, "store": "po" | "xliff" | ... | "module.Class",
#   "template": path or null, "targetLanguage": code or null, "sourceLanguage": code or null}, ...]}
# Output (standard output, JSON): {"version": "3.8.4", "results": [{"units": [...]} or {"error": "..."}, ...]}
#
# Every unit of the store is listed (header and obsolete ones too, flagged), with the toolkit's own fields and, under
# "weblate", the context/source/target Weblate builds from them (weblate/formats/ttkit.py), from which id_hash follows.
import importlib
import json
import sys

import translate.__version__ as toolkit_version
from lxml import etree
from translate.misc.multistring import multistring
from translate.misc.quote import propertiesdecode
from translate.storage.placeables.lisa import strelem_to_xml
from translate.storage.pypo import unquotefrompo

# Weblate's loader for each of its format ids (and the toolkit's own names for them).
STORES = {
    "po": ("pypo", "pofile"),
    "po-mono": ("pypo", "pofile"),
    "pot": ("pypo", "pofile"),
    "xliff": ("xliff", "xlifffile"),
    "plainxliff": ("xliff", "xlifffile"),
    "poxliff": ("poxliff", "PoXliffFile"),
    "aresource": ("aresource", "AndroidResourceFile"),
    "android": ("aresource", "AndroidResourceFile"),
    "strings": ("properties", "stringsfile"),
    "stringsfile": ("properties", "stringsfile"),
    "strings-utf8": ("properties", "stringsutf8file"),
    "stringsdict": ("stringsdict", "StringsDictFile"),
    "ts": ("ts2", "tsfile"),
    "tbx": ("tbx", "tbxfile"),
    "json": ("jsonl10n", "JsonFile"),
    "json-nested": ("jsonl10n", "JsonNestedFile"),
    "i18next": ("jsonl10n", "I18NextFile"),
}
XLIFF_STORES = {"xliff", "plainxliff", "poxliff"}
PO_STORES = {"po", "po-mono", "pot"}
ANDROID_STORES = {"aresource", "android"}
# Weblate's PropertiesUnit: the source is the template's source, the target the unit's target or else its source.
KEY_VALUE_STORES = {"strings", "stringsfile", "strings-utf8"}


def store_class(name):
    module, cls = STORES.get(name) or name.rsplit(".", 1)
    if "." not in module:
        module = "translate.storage." + module
    return getattr(importlib.import_module(module), cls)


def forms(value):
    """A toolkit string as a list of forms: a multistring's strings, else one string (None is empty)."""
    if value is None:
        return [""]
    if isinstance(value, multistring):
        return [str(s) for s in value.strings]
    return [str(value)]


def call(unit, name, default=None):
    method = getattr(unit, name, None)
    if method is None:
        return default
    try:
        return method()
    except (AttributeError, NotImplementedError):
        return default


def po_flags(unit):
    """The `#,` flags as the toolkit splits them (the raw list; Weblate's flag parser reads the same lines)."""
    flags = []
    for line in getattr(unit, "typecomments", []):
        for flag in line.split(","):
            value = flag.strip()
            if value and value != "#":
                flags.append(value)
    return flags


def bilingual_context(unit, kind):
    """Weblate's context of a unit read without a template."""
    if kind in XLIFF_STORES:
        resname = unit.xmlelement.get("resname")
        return resname or unit.getid().replace("\x04", "///")
    return unit.getcontext()


def monolingual_context(template_unit, kind):
    """Weblate's context (the key) of a unit read with a template, from the template unit."""
    if kind in PO_STORES:
        context = template_unit.getcontext()
        source = str(template_unit.source)  # a plural msgid counts by its first form
        if source and context:
            return context + "." + source
        return source or context
    if kind in XLIFF_STORES:
        return bilingual_context(template_unit, kind)
    return template_unit.getid()


def monolingual_source(template_unit, kind):
    if kind in XLIFF_STORES and not template_unit.target:
        return forms(template_unit.source)
    if kind in KEY_VALUE_STORES:
        return forms(template_unit.source)
    return forms(template_unit.target)


def monolingual_target(unit, kind):
    if unit is None:
        return [""]
    if kind in KEY_VALUE_STORES:
        return forms(unit.target or unit.source)
    return forms(unit.target)


def describe(unit, kind):
    source = forms(unit.source)
    target = forms(unit.target)
    plural = call(unit, "hasplural", False)
    result = {
        "id": str(unit.getid()),
        "context": call(unit, "getcontext", ""),
        "source": source,
        "target": target,
        "plural": bool(plural),
        "fuzzy": bool(call(unit, "isfuzzy", False)),
        "translated": bool(call(unit, "istranslated", False)),
        "approved": bool(call(unit, "isapproved", False)),
        "obsolete": bool(call(unit, "isobsolete", False)),
        "header": bool(call(unit, "isheader", False)),
        "blank": bool(call(unit, "isblank", False)),
        "translatable": bool(call(unit, "istranslatable", True)),
        "notes": call(unit, "getnotes", "") or "",
        "locations": list(call(unit, "getlocations", []) or []),
    }
    if kind in PO_STORES:
        result["flags"] = po_flags(unit)
        result["previousSource"] = forms(unit.prev_source)
        result["msgctxt"] = unquotefrompo(unit.msgctxt) if unit.msgctxt else None
    if kind in ANDROID_STORES:
        # the attributes Weblate's flag parser reads from the unit's element (parse_flags_xml)
        result["flagAttributes"] = {
            name: unit.xmlelement.get(name)
            for name in ("maxwidth", "size-unit", "font", "weblate-flags")
            if unit.xmlelement.get(name) is not None
        }
    if kind in XLIFF_STORES:
        result["xmlState"] = [
            node.get("state")
            for node in unit.xmlelement.iter("{*}target")
        ]
    return result


def load(path, kind, target_language=None, source_language=None):
    store = store_class(kind)()
    # Weblate's fixup sets the languages before parsing (some stores read their plural tags from them).
    if target_language:
        store.settargetlanguage(target_language)
    if source_language:
        store.setsourcelanguage(source_language)
    with open(path, "rb") as handle:
        store.parse(handle.read())
    return store


# Weblate's XliffUnit / RichXliffUnit over the toolkit (weblate/formats/ttkit.py), in our own words.
XLIFF_FUZZY_STATES = {"new", "needs-translation", "needs-adaptation", "needs-l10n"}
STATE_EMPTY, STATE_FUZZY, STATE_TRANSLATED, STATE_APPROVED, STATE_READONLY = 0, 10, 20, 30, 100


def rich_string(elements):
    """Weblate's rich_to_xliff_string: placeables serialized under a dummy root, top-level namespaces dropped."""
    root = etree.Element("e")
    for element in elements:
        strelem_to_xml(root, element)
    for child in root:
        if child.tag.startswith("{"):
            child.tag = child.tag[child.tag.index("}") + 1 :]
    etree.cleanup_namespaces(root)
    return etree.tostring(root, encoding="unicode")[3:][:-4]


def xliff_text(unit, which, rich):
    """Source or target forms as Weblate shows them; None when the (single) unit has no such node."""
    plain = unit.source if which == "source" else unit.target
    if plain is None:
        return None
    if not rich:
        return forms(plain)
    return [rich_string(unit.rich_source if which == "source" else unit.rich_target)]


def xliff_state(unit, main, target):
    """Weblate's state: read-only, needs editing (text and a fuzzy target state), empty, approved, translated."""
    if not main.istranslatable() or "read-only" in (main.xmlelement.get("weblate-flags") or ""):
        return STATE_READONLY
    has_text = any(target)
    states = set()
    for sub in (getattr(unit, "units", [unit]) if unit is not None else []):
        node = sub.xmlelement.find(sub.namespaced("target"))
        if node is not None and node.get("state") is not None:
            states.add(node.get("state"))
    if has_text and states & XLIFF_FUZZY_STATES:
        return STATE_FUZZY
    if not has_text:
        return STATE_EMPTY
    if unit.isapproved():
        return STATE_APPROVED
    return STATE_TRANSLATED


def content_units(store):
    """Weblate's all_store_units: neither obsolete nor a header."""
    return [u for u in store.units if not u.isobsolete() and not u.isheader()]


def read_xliff(request):
    """XLIFF as Weblate lists it: `weblate` carries context, source, target, state and whether the unit is listed."""
    kind = request["store"]
    rich = kind == "xliff"
    store = load(request["file"], kind, request.get("targetLanguage"), request.get("sourceLanguage"))
    units = []
    if request.get("template"):
        template = load(request["template"], kind, request.get("sourceLanguage"), request.get("sourceLanguage"))
        is_template = request["template"] == request["file"]
        by_context = {bilingual_context(u, kind): u for u in content_units(store)}
        for template_unit in content_units(template):
            context = bilingual_context(template_unit, kind)
            unit = by_context.get(context)
            if template_unit.target:
                source = xliff_text(template_unit, "target", rich)
            else:
                source = xliff_text(template_unit, "source", rich) or [""]
            target = [""]
            if unit is not None:
                target = xliff_text(unit, "target", rich)
                if target is None:
                    target = (xliff_text(unit, "source", rich) or [""]) if is_template else [""]
            entry = describe(template_unit, kind)
            entry["translation"] = describe(unit, kind) if unit is not None else None
            entry["weblate"] = {
                "monolingual": True,
                "context": context,
                "source": source,
                "target": target,
                "state": xliff_state(unit, template_unit, target),
                "listed": bool("\x1e\x1e".join(source)),
            }
            units.append(entry)
        return {"units": units}
    for unit in content_units(store):
        source = xliff_text(unit, "source", rich) or [""]
        target = xliff_text(unit, "target", rich) or [""]
        entry = describe(unit, kind)
        entry["weblate"] = {
            "monolingual": False,
            "context": bilingual_context(unit, kind),
            "source": source,
            "target": target,
            "state": xliff_state(unit, unit, target),
            "listed": bool("\x1e\x1e".join(source)),
        }
        units.append(entry)
    return {"units": units}


def read(request):
    kind = request["store"]
    if kind in XLIFF_STORES:
        return read_xliff(request)
    store = load(request["file"], kind, request.get("targetLanguage"), request.get("sourceLanguage"))
    units = []
    if request.get("template"):
        template = load(request["template"], kind, request.get("sourceLanguage"), request.get("sourceLanguage"))
        # the toolkit's id index: a later unit of the same id replaces an earlier one
        by_id = {}
        for unit in store.units:
            by_id[unit.getid()] = unit
        for template_unit in template.units:
            unit = by_id.get(template_unit.getid())
            described = describe(unit, kind) if unit is not None else None
            entry = describe(template_unit, kind)
            entry["translation"] = described
            entry["weblate"] = {
                "monolingual": True,
                "context": monolingual_context(template_unit, kind),
                "source": monolingual_source(template_unit, kind),
                "target": monolingual_target(unit, kind),
            }
            units.append(entry)
        return {"units": units}
    for unit in store.units:
        entry = describe(unit, kind)
        if kind in KEY_VALUE_STORES:
            # Weblate's KeyValueUnit/PropertiesUnit: the key is the context, the decoded key the source
            weblate = {"context": unit.getcontext() or unit.getid(), "source": [propertiesdecode(unit.name)], "target": monolingual_target(unit, kind)}
        else:
            weblate = {"context": bilingual_context(unit, kind), "source": forms(unit.source), "target": forms(unit.target)}
        entry["weblate"] = {"monolingual": False, **weblate}
        units.append(entry)
    return {"units": units}


def main():
    requests = json.load(sys.stdin)["requests"]
    # Some store classes print while parsing (aresource prints plural dicts): keep standard output for the answer.
    out, sys.stdout = sys.stdout, sys.stderr
    results = []
    for request in requests:
        try:
            results.append(read(request))
        except Exception as error:  # one bad file is that file's answer, not the batch's
            results.append({"error": f"{type(error).__name__}: {error}"})
    # json.dumps runs the C encoder; json.dump to a stream would run the pure-Python one (half the time on big batches)
    out.write(json.dumps({"version": toolkit_version.sver, "results": results}, ensure_ascii=False))


main()
