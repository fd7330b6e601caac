#!/usr/bin/env python3
"""Packs a NuGet package (.nupkg) from a laid-out folder and its .nuspec (`make nuget`).

    tools/nupkg.py LAYOUT/ID.nuspec OUT.nupkg

Debian 12's `nuget` (2.8.7) rejects a manifest with <license> (added to the schema in NuGet 4.9),
so the package is written here. A .nupkg is a ZIP file in the Open Packaging Conventions layout
NuGet reads:

    ID.nuspec                                  the manifest, without its <files> list
    <every file of the <files> list>           at its target path
    _rels/.rels                                relationships: the manifest, the core properties
    package/services/metadata/core-properties/<hex>.psmdcp   id, version, authors, description
    [Content_Types].xml                        a content type per extension (and per file
                                               without one)

The files are taken from the nuspec's <files> list (src relative to the nuspec's folder; a
target is the folder, empty for the top, or the whole path ending in the file's own name). The entries are stored in that order
with a fixed time stamp (SOURCE_DATE_EPOCH when set), so the same inputs give the same bytes.
"""

import hashlib
import os
import sys
import time
import xml.etree.ElementTree as ET
import zipfile

RELS_TYPE = "application/vnd.openxmlformats-package.relationships+xml"
CORE_TYPE = "application/vnd.openxmlformats-package.core-properties+xml"
MANIFEST_REL = "http://schemas.microsoft.com/packaging/2010/07/manifest"
CORE_REL = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"


def fail(message):
    """Prints the message with the program's name and exits with status 1."""
    sys.stderr.write("nupkg.py: %s\n" % message)
    sys.exit(1)


def escape(text):
    """Escapes text for an XML attribute or element."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def main(argv):
    """Reads the nuspec, checks its files and writes the package."""
    if len(argv) != 3:
        fail("usage: nupkg.py LAYOUT/ID.nuspec OUT.nupkg")
    nuspec_path, out_path = argv[1], argv[2]
    base = os.path.dirname(os.path.abspath(nuspec_path))
    tree = ET.parse(nuspec_path)
    root = tree.getroot()
    ns = root.tag[1:root.tag.index("}")] if root.tag.startswith("{") else ""
    q = (lambda name: "{%s}%s" % (ns, name)) if ns else (lambda name: name)
    metadata = root.find(q("metadata"))
    if metadata is None:
        fail("%s: no <metadata>" % nuspec_path)

    def meta(name, required=True):
        node = metadata.find(q(name))
        value = node.text.strip() if node is not None and node.text else ""
        if required and not value:
            fail("%s: <%s> is missing or empty" % (nuspec_path, name))
        return value

    package_id, version = meta("id"), meta("version")
    authors, description = meta("authors"), meta("description")
    tags = meta("tags", required=False)

    # The package's files, from <files>, which the packed manifest no longer carries.
    files_node = root.find(q("files"))
    if files_node is None or len(files_node) == 0:
        fail("%s: no <files> list" % nuspec_path)
    entries = []
    for node in files_node.findall(q("file")):
        src = node.get("src", "")
        target = node.get("target", "").strip("/")
        path = os.path.join(base, src)
        if not src or not os.path.isfile(path):
            fail("%s: file %r not found in %s" % (nuspec_path, src, base))
        name = os.path.basename(src)
        # The target is the folder (empty: the top), or the whole path ending in the file's name.
        if os.path.basename(target) != name:
            target = (target + "/" + name).lstrip("/")
        entries.append((target, path))
    root.remove(files_node)
    metadata.tail = "\n"
    names = [target for target, _ in entries]
    if len(set(names)) != len(names):
        fail("%s: two files have the same target" % nuspec_path)
    manifest_name = package_id + ".nuspec"
    if ns:
        ET.register_namespace("", ns)
    manifest = ET.tostring(root, encoding="utf-8", xml_declaration=True)

    # A stable part name for the core properties: the same id and version give the same name.
    psmdcp = "package/services/metadata/core-properties/%s.psmdcp" % hashlib.sha256(
        ("%s %s" % (package_id, version)).encode("utf-8")).hexdigest()[:32]
    rels = (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Type="%s" Target="/%s" Id="R%s" />'
        '<Relationship Type="%s" Target="/%s" Id="R%s" />'
        "</Relationships>" % (
            MANIFEST_REL, escape(manifest_name), hashlib.sha256(b"manifest").hexdigest()[:16].upper(),
            CORE_REL, psmdcp, hashlib.sha256(b"core").hexdigest()[:16].upper()))
    core = (
        '<?xml version="1.0" encoding="utf-8"?>'
        '<coreProperties xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xmlns="http://schemas.openxmlformats.org/package/2006/metadata/core-properties">'
        "<dc:creator>%s</dc:creator><dc:description>%s</dc:description>"
        "<dc:identifier>%s</dc:identifier><version>%s</version><keywords>%s</keywords>"
        "<lastModifiedBy>libdealer tools/nupkg.py</lastModifiedBy></coreProperties>" % (
            escape(authors), escape(description), escape(package_id), escape(version),
            escape(tags)))

    # Content types: one Default per extension, an Override for each file without one.
    defaults = {"rels": RELS_TYPE, "psmdcp": CORE_TYPE, "nuspec": "application/octet"}
    overrides = []
    for target in names:
        leaf = target.rsplit("/", 1)[-1]
        if "." in leaf:
            defaults.setdefault(leaf.rsplit(".", 1)[1].lower(), "application/octet")
        else:
            overrides.append(target)
    types = ['<?xml version="1.0" encoding="utf-8"?>',
             '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">']
    for ext in sorted(defaults):
        types.append('<Default Extension="%s" ContentType="%s" />' % (escape(ext), defaults[ext]))
    for target in overrides:
        types.append('<Override PartName="/%s" ContentType="application/octet" />' % escape(target))
    types.append("</Types>")

    stamp = time.gmtime(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")))
    date_time = tuple(max(v, m) for v, m in zip(stamp[:6], (1980, 1, 1, 0, 0, 0)))

    def add(archive, name, data):
        info = zipfile.ZipInfo(name, date_time)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        archive.writestr(info, data)

    tmp_path = out_path + ".tmp"
    with zipfile.ZipFile(tmp_path, "w") as archive:
        add(archive, "_rels/.rels", rels.encode("utf-8"))
        add(archive, manifest_name, manifest)
        for target, path in entries:
            with open(path, "rb") as handle:
                add(archive, target, handle.read())
        add(archive, psmdcp, core.encode("utf-8"))
        add(archive, "[Content_Types].xml", "".join(types).encode("utf-8"))
    os.replace(tmp_path, out_path)
    print("%s: %s %s, %d files" % (out_path, package_id, version, len(entries)))


if __name__ == "__main__":
    main(sys.argv)
