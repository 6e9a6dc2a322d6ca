"""Hermes' guard answers for one skill folder, as the scan goldens keep them.

Imported inside the Hermes venv by regen_scan.py's and fuzz_scan.py's inner
programs (it needs `tools.skills_guard`). For each source: the trust level,
verdict, summary and both decisions; the findings once (they do not depend on
the source), per file in Hermes' order, with the root masked as `$ROOT`. For an
`invisible_unicode` finding the characters of its line are kept too, since
which one Hermes names depends on Python's set order.
"""
from tools.skills_guard import scan_skill, should_allow_install, INVISIBLE_CHARS

FIELDS = ("pattern_id", "severity", "category", "file", "line", "match", "description")


def scan_entry(path, sources, root):
    entry = {"by_source": {}}
    findings = None
    for source in sources:
        try:
            r = scan_skill(path, source)
        except Exception as e:
            entry["error"] = f"{type(e).__name__}: {e}".replace(str(root), "$ROOT")
            break
        allowed, reason = should_allow_install(r)
        forced, forced_reason = should_allow_install(r, force=True)
        entry["by_source"][source] = {
            "trust_level": r.trust_level, "verdict": r.verdict, "summary": r.summary,
            "allowed": allowed, "reason": reason, "forced": forced, "forced_reason": forced_reason,
        }
        rows = []
        for f in r.findings:
            row = {k: getattr(f, k) for k in FIELDS}
            row["match"] = row["match"].replace(str(root), "$ROOT")
            if f.pattern_id == "invisible_unicode":
                text = (path / f.file).read_text(encoding="utf-8") if path.is_dir() else path.read_text(encoding="utf-8")
                line = text.split("\n")[f.line - 1]
                row["chars"] = sorted({"U+%04X" % ord(c) for c in line if c in INVISIBLE_CHARS})
            rows.append(row)
        if findings is None:
            findings = rows
        assert findings == rows, "findings do not depend on the source"
    by_file = {}
    for row in findings or []:
        by_file.setdefault(row["file"], []).append(row)
    entry["findings_by_file"] = by_file
    return entry
