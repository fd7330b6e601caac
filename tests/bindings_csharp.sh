#!/usr/bin/env bash
# C# binding test: builds bindings/csharp/Dealer.cs with its console test
# bindings/csharp/TestDealer.cs (mcs) and runs it with mono against target/lib/libdealer.so:
#   - drift: every dealer_* name (functions and types) and every DEALER_* constant of
#     include/dealer.h appears in Dealer.cs (each missing one is a FAIL);
#   - record sizes: Marshal.SizeOf of each struct equals the C sizeof (a small C program
#     compiled against include/dealer.h prints them);
#   - the test's own checks (errors with positions, iteration, Eval, double dummy, output
#     callback against the CLI's stdout for the same script and seed, Dispose, …);
#   - the NuGet package (`make nuget`): target/nuget/ holds Libdealer.nuspec (id, version from
#     Cargo.toml, license, authors), lib/netstandard2.0/Libdealer.dll, the linux-x64 native
#     library, README and license files; target/Libdealer.VERSION.nupkg holds those files and
#     the OPC parts NuGet needs, and Debian's `nuget` (when installed) installs it back to the
#     same files; a program compiled against the packaged Libdealer.dll (a reference, not the
#     source) runs with the native library of the layout (LD_LIBRARY_PATH=runtimes/linux-x64/
#     native, checked in /proc/self/maps) and prints what the CLI prints for the same script.
# Prints "ok: NAME" / "FAIL: NAME" per check and "N passed, M failed"; exit status 1 on any
# failure. Without mcs, mono or a C compiler the test is NOT RUN: a failure under CI=true,
# otherwise exit status 0 (as tests/ffi_examples.sh).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
lib="$top/target/lib"
cli="$top/target/release/dealer"
header="$top/include/dealer.h"
binding="$top/bindings/csharp/Dealer.cs"
testsrc="$top/bindings/csharp/TestDealer.cs"
cc=${CC:-cc}

missing=()
for tool in mcs mono "$cc"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
    echo "NOT RUN: mono not installed (needs ${missing[*]}: apt-get install mono-mcs mono-runtime)"
  else
    echo "NOT RUN: C# binding test (needs ${missing[*]})"
  fi
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi

passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && exit 0; exit 1; }

# Drift: names of the header missing from the binding.
names=$( (grep -o '\bdealer_[a-z_]*' "$header"; sed -n 's/^#define \(DEALER_[A-Z_0-9]*\) .*/\1/p' "$header") | sort -u)
count=0
drift=0
for name in $names; do
  count=$((count + 1))
  if ! grep -qw "$name" "$binding"; then
    fail "drift: $name (include/dealer.h) missing from bindings/csharp/Dealer.cs"
    drift=$((drift + 1))
  fi
done
if [ "$count" -lt 40 ]; then
  fail "drift: only $count names found in include/dealer.h"
elif [ "$drift" -eq 0 ]; then
  ok "drift: all $count dealer_*/DEALER_* names of include/dealer.h are in Dealer.cs"
fi

for file in "$lib/libdealer.so" "$cli"; do
  if [ ! -e "$file" ]; then
    fail "missing $file (build the library and the CLI first: make)"
    finish
  fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Record sizes from the C compiler.
cat >"$tmp/sizes.c" <<'C'
#include <stdio.h>
#include "dealer.h"
int main(void) {
  printf("dealer_deal=%zu\n", sizeof(dealer_deal));
  printf("dealer_run_report=%zu\n", sizeof(dealer_run_report));
  printf("dealer_dds_results=%zu\n", sizeof(dealer_dds_results));
  printf("dealer_usereval_query=%zu\n", sizeof(dealer_usereval_query));
  printf("dealer_hand_stats=%zu\n", sizeof(dealer_hand_stats));
  return 0;
}
C
if log=$("$cc" -std=c99 -Wall -I"$top/include" "$tmp/sizes.c" -o "$tmp/sizes" 2>&1) &&
  "$tmp/sizes" >"$tmp/sizes.txt"; then
  ok "C sizeof program"
else
  fail "C sizeof program"
  printf '%s\n' "$log" | tail -n 10 | sed 's/^/  /'
  finish
fi
# The script the output check runs, and the CLI's stdout for it with seed 7.
printf 'generate 1000\nproduce 5\naction printoneline\n' >"$tmp/seed7.dlr"
if "$cli" -s 7 "$tmp/seed7.dlr" >"$tmp/seed7.out" 2>"$tmp/seed7.err" &&
  [ "$(grep -c '^n ' "$tmp/seed7.out")" -eq 5 ]; then
  ok "CLI prints 5 deals for seed 7"
else
  fail "CLI prints 5 deals for seed 7"
  sed 's/^/  /' "$tmp/seed7.out" "$tmp/seed7.err" | head -n 8
fi

if log=$(mcs -out:"$tmp/TestDealer.exe" "$binding" "$testsrc" 2>&1); then
  ok "build Dealer.cs + TestDealer.cs (mcs)"
else
  fail "build Dealer.cs + TestDealer.cs (mcs)"
  printf '%s\n' "$log" | tail -n 30 | sed 's/^/  /'
  finish
fi

# Mono maps DllImport("dealer") to libdealer.so, found through LD_LIBRARY_PATH.
size_args=()
while IFS= read -r line; do size_args+=(--size "$line"); done <"$tmp/sizes.txt"
LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 300 \
  mono "$tmp/TestDealer.exe" "${size_args[@]}" \
  --script7 "$tmp/seed7.dlr" --cli-output7 "$tmp/seed7.out" >"$tmp/test.out" 2>"$tmp/test.err"
status=$?
sed '$d' "$tmp/test.out" | grep -v '^[0-9]* passed, [0-9]* failed$'
last=$(tail -n 1 "$tmp/test.out")
if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  passed=$((passed + BASH_REMATCH[1]))
  failed=$((failed + BASH_REMATCH[2]))
  if [ $status -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ]; then
    fail "TestDealer.exe: exit status $status with no failed check"
  fi
else
  echo "$last"
  fail "TestDealer.exe did not finish: exit status $status"
fi
if [ -s "$tmp/test.err" ]; then
  sed 's/^/  stderr: /' "$tmp/test.err" | head -n 20
fi

# The NuGet package.
version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$top/Cargo.toml" | head -n 1)
layout="$top/target/nuget"
nupkg="$top/target/Libdealer.$version.nupkg"
if log=$(make -C "$top" --no-print-directory nuget 2>&1); then
  ok "make nuget"
else
  fail "make nuget"
  printf '%s\n' "$log" | tail -n 20 | sed 's/^/  /'
  finish
fi
package_files="Libdealer.nuspec lib/netstandard2.0/Libdealer.dll lib/netstandard2.0/Libdealer.xml
runtimes/linux-x64/native/libdealer.so README.md LICENSE THIRD-PARTY-NOTICES.md
LICENSES/Apache-2.0.txt"
# With the Windows build done (make windows), the package carries its DLL too.
if [ -f "$top/target/windows/dealer.dll" ]; then package_files="$package_files runtimes/win-x64/native/dealer.dll"; fi
absent=""
for file in $package_files; do
  [ -s "$layout/$file" ] || absent="$absent $file"
done
if [ -z "$absent" ]; then ok "target/nuget/ holds the package's files"; else fail "target/nuget/ lacks:$absent"; fi
if cmp -s "$lib/libdealer.so" "$layout/runtimes/linux-x64/native/libdealer.so" &&
  cmp -s "$top/LICENSE" "$layout/LICENSE" &&
  cmp -s "$top/THIRD-PARTY-NOTICES.md" "$layout/THIRD-PARTY-NOTICES.md" &&
  cmp -s "$top/LICENSES/Apache-2.0.txt" "$layout/LICENSES/Apache-2.0.txt" &&
  cmp -s "$top/bindings/csharp/README.md" "$layout/README.md"; then
  ok "target/nuget/: native library, README and license files are the repository's"
else
  fail "target/nuget/: native library, README or license files differ from the repository's"
fi
# The manifest's metadata, read as XML.
if meta=$(python3 - "$layout/Libdealer.nuspec" <<'PY' 2>&1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = {"n": root.tag[1:root.tag.index("}")]}
m = root.find("n:metadata", ns)
for name in ("id", "version", "authors", "license", "readme"):
    node = m.find("n:" + name, ns)
    print("%s=%s" % (name, "" if node is None else (node.text or "").strip()))
print("license.type=%s" % m.find("n:license", ns).get("type"))
print("description=%s" % ("yes" if (m.find("n:description", ns).text or "").strip() else "no"))
PY
); then
  expected_meta="id=Libdealer
version=$version
authors=libdealer developers
license=MIT
readme=README.md
license.type=expression
description=yes"
  if [ "$meta" = "$expected_meta" ]; then
    ok "Libdealer.nuspec: id Libdealer, version $version (Cargo.toml), authors, license MIT, readme, description"
  else
    fail "Libdealer.nuspec metadata"
    diff <(printf '%s\n' "$expected_meta") <(printf '%s\n' "$meta") | sed 's/^/  /'
  fi
else
  fail "Libdealer.nuspec is not readable XML"
  printf '%s\n' "$meta" | tail -n 5 | sed 's/^/  /'
fi
# The .nupkg: the files at the same paths with the same bytes, and the OPC parts.
if entries=$(python3 - "$nupkg" "$layout" $package_files <<'PY' 2>&1
import os, sys, zipfile
path, layout, files = sys.argv[1], sys.argv[2], sys.argv[3:]
z = zipfile.ZipFile(path)
bad = z.testzip()
if bad:
    sys.exit("corrupt entry " + bad)
names = z.namelist()
for f in files:
    if f == "Libdealer.nuspec":
        continue
    if f not in names:
        sys.exit("missing " + f)
    if z.read(f) != open(os.path.join(layout, f), "rb").read():
        sys.exit("differs from the layout: " + f)
manifest = z.read("Libdealer.nuspec").decode("utf-8")
if "<files>" in manifest or "<id>Libdealer</id>" not in manifest:
    sys.exit("the packed manifest is not the layout's without <files>")
for part in ("[Content_Types].xml", "_rels/.rels"):
    if part not in names:
        sys.exit("missing " + part)
core = [n for n in names if n.startswith("package/services/metadata/core-properties/") and n.endswith(".psmdcp")]
if len(core) != 1:
    sys.exit("core properties: %r" % core)
rels = z.read("_rels/.rels").decode("utf-8")
if 'Target="/Libdealer.nuspec"' not in rels or 'Target="/%s"' % core[0] not in rels:
    sys.exit("_rels/.rels does not point to the manifest and the core properties")
print(len(names))
PY
); then
  ok "$(basename "$nupkg"): $entries entries, the layout's files, manifest, [Content_Types].xml, _rels/.rels, core properties"
else
  fail "$(basename "$nupkg"): $entries"
fi
if command -v nuget >/dev/null 2>&1; then
  mkdir -p "$tmp/feed" "$tmp/installed"
  cp "$nupkg" "$tmp/feed/"
  if log=$(cd "$tmp" && HOME="$tmp" timeout 300 nuget install Libdealer -Version "$version" \
      -Source "$tmp/feed" -OutputDirectory "$tmp/installed" -NonInteractive 2>&1); then
    differ=""
    for file in $package_files; do
      [ "$file" = Libdealer.nuspec ] && continue
      cmp -s "$layout/$file" "$tmp/installed/Libdealer.$version/$file" || differ="$differ $file"
    done
    if [ -z "$differ" ]; then
      ok "Debian's nuget installs the .nupkg back to the layout's files"
    else
      fail "nuget install: files differ or are missing:$differ"
    fi
  else
    fail "nuget install of the .nupkg"
    printf '%s\n' "$log" | tail -n 10 | sed 's/^/  /'
  fi
else
  echo "NOT RUN: reading the .nupkg back with nuget (apt-get install nuget)"
fi
# A program compiled against the packaged assembly, run with the layout's native library only.
cat >"$tmp/Consumer.cs" <<'CS'
using System;
using System.IO;
using System.Linq;
using System.Text;
using Libdealer;

// Runs the script of argument 0 with seed 7, writes the captured output, then prints the path
// of the libdealer.so the process mapped.
internal static class Consumer
{
    private static int Main(string[] args)
    {
        var text = new StringBuilder();
        using (var session = new DealerSession())
        {
            session.Seed = 7;
            session.SetOutput(DealerStream.DEALER_STREAM_OUTPUT, (Action<string>)(s => text.Append(s)));
            session.LoadScriptFile(args[0]);
            session.Run();
        }
        Console.Write(text.ToString());
        string mapped = File.ReadAllLines("/proc/self/maps")
            .Select(line => line.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries))
            .Where(f => f.Length >= 6 && f[5].EndsWith("/libdealer.so"))
            .Select(f => f[5]).FirstOrDefault();
        Console.Error.WriteLine("mapped: " + (mapped ?? "none"));
        return 0;
    }
}
CS
mkdir -p "$tmp/consumer"
if log=$(mcs -nologo -r:"$layout/lib/netstandard2.0/Libdealer.dll" -out:"$tmp/consumer/Consumer.exe" \
    "$tmp/Consumer.cs" 2>&1); then
  ok "a program builds against target/nuget/lib/netstandard2.0/Libdealer.dll (reference)"
  # No copy of Libdealer.dll beside the program, no target/lib on the library path.
  MONO_PATH="$layout/lib/netstandard2.0" LD_LIBRARY_PATH="$layout/runtimes/linux-x64/native" \
    timeout 120 mono "$tmp/consumer/Consumer.exe" "$tmp/seed7.dlr" >"$tmp/consumer.out" 2>"$tmp/consumer.err"
  status=$?
  mapped=$(sed -n 's/^mapped: //p' "$tmp/consumer.err")
  mask() { sed 's/^Time needed .*/Time needed (masked)/' "$1"; }
  if [ $status -eq 0 ] && [ "$mapped" = "$layout/runtimes/linux-x64/native/libdealer.so" ] &&
    cmp -s <(mask "$tmp/seed7.out") <(mask "$tmp/consumer.out"); then
    ok "the program runs on the layout's libdealer.so and prints the CLI's output for seed 7"
  else
    fail "the program on the layout: exit status $status, libdealer mapped from '${mapped:-none}'"
    diff <(mask "$tmp/seed7.out") <(mask "$tmp/consumer.out") | head -n 10 | sed 's/^/  /'
    grep -v '^mapped: ' "$tmp/consumer.err" | head -n 10 | sed 's/^/  stderr: /'
  fi
else
  fail "a program builds against target/nuget/lib/netstandard2.0/Libdealer.dll"
  printf '%s\n' "$log" | tail -n 10 | sed 's/^/  /'
fi
finish
