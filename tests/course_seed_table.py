#!/usr/bin/env python3
# The table of programs/README.md that maps every page of the seeds holding a program, a kernel or a question to
# the folders that answer it (between <!-- seed-table:begin --> and <!-- seed-table:end -->): every folder it
# names exists with a README, every folder of programs/ and every seed 000-004 appears in it, and, given the seed
# texts' directory, every page title is in its seed's text.
#   course_seed_table.py SOURCE_ROOT [SEEDS_DIR]
import os, re, sys, unicodedata

SEEDS = ["000", "001", "002", "003", "004"]


def normalised(text):
    text = unicodedata.normalize("NFC", text).replace("\u2019", "'").lower()
    return re.sub(r"\s+", " ", text)


def main(argv):
    root, seeds_dir = argv[1], (argv[2] if len(argv) > 2 and argv[2] else None)
    text = open(os.path.join(root, "programs", "README.md"), encoding="utf-8").read()
    m = re.search(r"<!-- seed-table:begin -->\n(.*?)<!-- seed-table:end -->", text, re.S)
    if not m:
        print("FAIL: programs/README.md has no seed-table block")
        return 1
    rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in m.group(1).strip().split("\n")[2:]]
    failures, named, cited = 0, set(), set()
    seed_texts = {}
    if seeds_dir:
        for name in os.listdir(seeds_dir):
            if name[:3] in SEEDS and name.endswith(".txt"):
                seed_texts[name[:3]] = normalised(open(os.path.join(seeds_dir, name), encoding="utf-8").read())
    for row in rows:
        if len(row) != 4:
            print("FAIL: a row without its 4 cells: %s" % row)
            failures += 1
            continue
        seed, title, _, folders = row
        cited.add(seed)
        links = re.findall(r"\[([^\]]+)\]\(([^)]+)/\)", folders)
        if not links:
            print("FAIL: %s '%s' names no folder" % (seed, title))
            failures += 1
        for label, path in links:
            named.add(path)
            if label != path:
                print("FAIL: %s '%s': the link [%s] goes to %s/" % (seed, title, label, path))
                failures += 1
            elif not os.path.isfile(os.path.join(root, "programs", path, "README.md")):
                print("FAIL: %s '%s': programs/%s/README.md does not exist" % (seed, title, path))
                failures += 1
        if seed in seed_texts and normalised(title) not in seed_texts[seed]:
            print("FAIL: '%s' is not a title in seed %s" % (title, seed))
            failures += 1
    for seed in SEEDS:
        if seed not in cited:
            print("FAIL: seed %s has no row" % seed)
            failures += 1
    for folder in sorted(os.listdir(os.path.join(root, "programs"))):
        if re.match(r"\d{3}_", folder) and folder not in named:
            print("FAIL: programs/%s answers no seed page in the table" % folder)
            failures += 1
    if not seeds_dir:
        print("titles not checked: no seed directory given (cmake -DWARPSIM_SEEDS_DIR=...)")
    elif len(seed_texts) != len(SEEDS):
        print("FAIL: %s holds %d of the %d seeds" % (seeds_dir, len(seed_texts), len(SEEDS)))
        failures += 1
    print("%d rows, %d folders, %d failure(s)" % (len(rows), len(named), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
