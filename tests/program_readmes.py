#!/usr/bin/env python3
# Checks the figures the course's READMEs (programs/README.md, programs/*/README.md) quote against the runs and
# the committed GPU measurements they come from; tests/program_readmes.sh runs it (ctest `program_readmes`).
#
#   program_readmes.py WARPSIM README...      check, print one line per block, exit 1 on any failure
#   program_readmes.py --skip-sizes WARPSIM README...   the same, but the figures from validate/sizes/ launches
#                                             (minutes under the sanitizers: the plain build checks them)
#   program_readmes.py --self-test            the checker's own cases (a mask that hides a whole line, ...)
#   program_readmes.py --update WARPSIM README...   rewrite each figure that differs from its expression, and
#                                             each quoted line whose run line has the same words but other
#                                             numbers (after a change of the model: read the diff, then the prose)
#
# Three kinds of HTML comment, invisible in the rendered page:
#
# <!-- checked: ARGS -->  before a fenced block: its lines are lines that `warpsim run ARGS` prints, verbatim and
#   in order (lines of the run may be left out between them, never changed); the run must exit 0.
#   `<!-- checked: ARGS ; varies: REGEX -->` masks a figure that is not the same from run to run: one measured
#   on the machine that runs it (a CPU baseline timed with std::chrono) or one that depends on the order of
#   --jobs threads. Every match of REGEX, in the run's lines and in the quoted ones, has its one group replaced
#   by `#` before comparing. The group must be a number, and a masked line must keep a letter, so a mask never
#   hides a line or a word. `; status: N` expects the run to exit with status N instead (a program that fails on
#   purpose: a deadlock, a race found). The temporary directory a .cu is built in (.../warpsim-XXXXXX/, six
#   random characters) reads as /tmp/warpsim-XXXXXX/ in the run's lines.
#
# <!-- source NAME: ARGS -->  names a source of figures for the rest of the README. Launches (NAMEk.metric):
#   `warpsim run ARGS --csv` (one row per launch), `csv:PATH` (an ncu CSV committed under validate/results/ or
#   validate/programs/<gpu>/, one row per launch), `meanN:PATH` (an ncu CSV of run-on-gpu --repeat N: each
#   launch's N rows averaged), `arch:PRESET` (one "launch" holding `warpsim arch show PRESET`'s numeric
#   parameters, e.g. a1['launch_overhead_ns']). Texts (NAMEk.num(r'REGEX')):
#     `text:PATH...`  committed text files, one each in the order given, a glob expanded in sorted order: a
#                     program's stdout on the card (validate/programs/<gpu>/*.runN.txt), a sanitizer's log, a report;
#     `out:ARGS`      what `warpsim run ARGS` prints; `out:ARGS ; status: N` for a run that fails on purpose;
#     `compare:ARGS`  what `validate/compare --warpsim WARPSIM ARGS` prints (the committed ncu CSVs of
#                     validate/results/ against this warpsim; it must exit 0), e.g. "N of M exact metrics match";
#     `timeline:ARGS` the trace of `warpsim run ARGS --timeline FILE`, one line per span on an engine's row (a
#                     stream's row repeats them): `GPU 0 | compute | scale_add | ts 2841.65 | dur 13.19` (us).
#   t1.num(r'REGEX') is the number the first match captures (the group named n, else group 1, else the whole
#   match; commas dropped; an int unless it has a decimal point or an exponent), t1.num(r'REGEX', k) the k-th
#   match's, t1.nums(r'REGEX') all of them, t1.count(r'REGEX') how many lines match; mean(t.num(r'...') for t in
#   launches('t')) averages runs. A REGEX that finds nothing fails, so a figure whose line has gone from the file
#   fails too. An apostrophe in a REGEX is written `.` (the REGEX is a Python string in quotes).
#
# <!-- figures: EXPR ... -->  before a paragraph, a table or a fenced block (up to the next blank line, or the
#   closing fence): EVERY number in it, read in order (inline code, link targets, dates and words such as `v1`,
#   `sm_90` or `2a` are not numbers), must equal the next EXPR. EXPR is `=TEXT` (the number is TEXT: an input,
#   a label, a seed's own figure) or `PYTHON:FORMAT` (a Python expression over the sources, formatted with
#   Python's format spec): NAMEk.alias is the k-th launch of source NAME (aliases in METRIC_ALIASES below, or
#   NAMEk['ncu__metric.name']), e.g. `w1.inst:,` or `w2.sld_wf/w2.sld_req:.2f`. A line `for $ in A B C: EXPR...`
#   repeats its EXPRs with $ replaced by A, then B, then C (a table's rows). same(a, b, ...) is the value its
#   arguments share, and fails when they differ (a column "warpsim = O0" is one number for both);
#   launches('NAME') is the list of a source's launches (min(l.us for l in launches('t')) ...); mean(values) their
#   mean. Quoted strings are left alone (a regex may hold r1. or `)`), but a `for` line replaces $ in them too.
#   So a figure in a figures block that drifts from the run or the measurement, or a number added without its
#   expression, fails.
#
# In a programs/NNN_topic/README.md, every paragraph, table or fenced block holding a number under a heading of
# FIGURE_SECTIONS must follow a checked or figures comment: a figure added there without its check fails.
import concurrent.futures, csv, glob, io, json, os, re, shlex, shutil, subprocess, sys, tempfile

# warpsim's report lines under their ncu names: the short names the figures use.
METRIC_ALIASES = {
    "inst": "smsp__inst_executed.sum",
    "tinst": "smsp__thread_inst_executed.sum",
    "gld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "gst_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "gld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "gst_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "lld_sec": "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "lst_sec": "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "lld_req": "smsp__sass_inst_executed_op_local_ld.sum",
    "lst_req": "smsp__sass_inst_executed_op_local_st.sum",
    "sld_req": "smsp__sass_inst_executed_op_shared_ld.sum",
    "sst_req": "smsp__sass_inst_executed_op_shared_st.sum",
    "sld_wf": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sst_wf": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "sld_bc": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "sst_bc": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "satom": "smsp__sass_inst_executed_op_shared_atom.sum",
    "gatom": "smsp__sass_inst_executed_op_global_atom.sum",
    "gred": "smsp__sass_inst_executed_op_global_red.sum",
    "br": "smsp__sass_branch_targets.sum",
    "div": "smsp__sass_branch_targets_threads_divergent.sum",
    "uni": "smsp__sass_branch_targets_threads_uniform.sum",
    "bar": "warpsim__barrier_inst.sum",
    "ns": "gpu__time_duration.sum",
    "l1hit": "l1tex__t_sector_hit_rate.pct",
    "l2hit": "lts__t_sector_hit_rate.pct",
    "occ": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "t128": "warpsim__global_transactions_128b.sum",
    "t64": "warpsim__global_transactions_64b.sum",
    "t32": "warpsim__global_transactions_32b.sum",
}


class Launch:
    """One row of an ncu-layout CSV: metrics by ncu name (row['x.sum']) or alias (row.inst); row.us is the
    duration in microseconds."""

    def __init__(self, values):
        self.values = values

    def __getitem__(self, metric):
        if metric not in self.values:
            raise KeyError("no metric %s in this source" % metric)
        return self.values[metric]

    def __getattr__(self, alias):
        if alias == "us":
            return self["gpu__time_duration.sum"] / 1000.0
        if alias == "simt":  # from the exact counts: the CSV's two decimals would round 99.0502 down to 99.0
            return 100.0 * self["smsp__thread_inst_executed.sum"] / (32 * self["smsp__inst_executed.sum"])
        if alias not in METRIC_ALIASES:  # (us and simt are computed above)
            raise AttributeError("unknown alias %s (METRIC_ALIASES in tests/program_readmes.py)" % alias)
        return self[METRIC_ALIASES[alias]]


class Text:
    """A text as a source of figures (a committed file, or what a run printed): its numbers found by regular
    expressions, since a program's stdout or a sanitizer's log has no columns to name them by."""

    def __init__(self, where, text):
        self.where, self.text = where, text

    def nums(self, regex):
        """The number each match of regex captures: the group named n, else group 1, else the whole match."""
        pattern, out = re.compile(regex, re.M), []
        for m in pattern.finditer(self.text):
            g = "n" if "n" in pattern.groupindex else (1 if pattern.groups else 0)
            digits = m.group(g).replace(",", "")
            out.append(float(digits) if re.search(r"[.eE]", digits) else int(digits))
        return out

    def num(self, regex, k=1):
        found = self.nums(regex)
        if len(found) < k:
            raise ValueError("%s: %d match(es) of %r, not %d" % (self.where, len(found), regex, k))
        return found[k - 1]

    def count(self, regex):
        """How many lines match (a count the file shows only by repeating a line: one report per error)."""
        n = sum(1 for line in self.text.split("\n") if re.search(regex, line))
        if n == 0:
            raise ValueError("%s: no line matches %r" % (self.where, regex))
        return n


def timeline_lines(trace):
    """A Chrome trace (warpsim's --timeline) as text: `GPU 0 | compute | NAME | ts T | dur D` per span, in time
    order, the engine rows only (a stream's row repeats its engines' spans)."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    rows = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    spans = [e for e in events if e.get("ph") == "X" and not rows.get((e["pid"], e["tid"]), "").startswith("stream")]
    return "\n".join("GPU %d | %s | %s | ts %.2f | dur %.2f" % (e["pid"], rows.get((e["pid"], e["tid"]), "?"), e["name"],
                                                             e["ts"], e["dur"])
                     for e in sorted(spans, key=lambda e: (e["ts"], e["pid"], e["tid"])))


def mean(values):
    values = list(values)
    return sum(values) / len(values)


# The headings of an exercise README whose every number is a figure to check.
FIGURE_SECTIONS = re.compile(r"#+ (What to expect|Figures|Time|What the real GPU showed|The H100|Against the card)")

# The temporary directory warpsim builds a .cu in (mkdtemp: six random characters), named in its messages.
TMPDIR_RE = re.compile(r"\S*/warpsim-[A-Za-z0-9]{6}/")


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def csv_launches(text, repeat=1):
    """The launches of an ncu --csv --page raw text (header, units row, one row per launch), each group of
    `repeat` consecutive rows averaged."""
    rows = [r for r in csv.reader(io.StringIO(text)) if r]
    if not rows or "ID" not in rows[0]:
        raise ValueError("not an ncu CSV (no header with ID)")
    header, data = rows[0], [r for r in rows[1:] if r[0] != ""]
    if len(data) % repeat:
        raise ValueError("%d rows is not a multiple of the repeat count %d" % (len(data), repeat))
    launches = []
    for g in range(0, len(data), repeat):
        values = {}
        for col, name in enumerate(header):
            nums = [number(r[col]) for r in data[g:g + repeat] if col < len(r)]
            if nums and all(n is not None for n in nums):
                mean = sum(nums) / len(nums)
                values[name] = int(mean) if mean == int(mean) else mean  # counts format as integers
        launches.append(Launch(values))
    return launches


def arch_parameters(text):
    values = {}
    for line in text.split("\n"):
        m = re.match(r"\s*(\w+)\s*=\s*([-0-9.]+)\s*(#.*)?$", line)
        if m and number(m.group(2)) is not None:
            values[m.group(1)] = number(m.group(2))
    return values


# A number as the figures read them: an optional minus, digits with thousands commas and a decimal part, not
# glued to a word (v1, sm_90, 2a, 0x1f, k-1) -- a trailing x (3x, 1.5x) is a factor and stays a number, and so
# does an exponent (3.32e-07, a float's error as a program prints it: EXPR's format .2e).
NUMBER_RE = re.compile(r"(?<![A-Za-z_\d.,/#-])-?\d+(?:,\d{3})*(?:\.\d+)?(?:e[-+]\d+)?(?![A-Za-wyz_\d]|\.\d)")
NOT_FIGURES_RE = re.compile(r"`[^`]*`|\]\([^)]*\)|<!--.*?-->|\d{4}-\d{2}-\d{2}|https?://\S+")


def number_spans(text):
    """The numbers of text with their places in it (what is not a figure blanked, keeping every offset)."""
    text = "\n".join(" " * len(l) if l.startswith("```") else l for l in text.split("\n"))  # a fence is no code span
    text = NOT_FIGURES_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return [(m.start(), m.end(), m.group(0)) for m in NUMBER_RE.finditer(text)]


def numbers_in(text):
    return [n for _, _, n in number_spans(text)]


def skeleton(line):
    """A line with its numbers blanked: a quoted line and the run's line it stands for share it."""
    return re.sub(r"-?\d[\d.,]*", "#", line)


def split_exprs(text):
    """EXPRs split at blanks outside brackets, so that min(l.us for l in launches('t')) stays one."""
    out, depth, word, quote = [], 0, "", None
    for ch in text + " ":
        if quote:  # inside a string (a regex): its blanks and brackets are its own
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        else:
            depth += (ch in "([") - (ch in ")]")
        if ch.isspace() and depth == 0 and not quote:
            if word:
                out.append(word)
            word = ""
        else:
            word += ch
    return out


def expand_for_lines(spec):
    out = []
    for line in spec.split("\n"):
        m = re.match(r"\s*for \$ in ([^:]+):(.*)$", line)
        if not m:
            out += split_exprs(line)
            continue
        for value in m.group(1).split():
            out += split_exprs(m.group(2).replace("$", value))
    return out


def same(*values):
    """The value all arguments share (a README's "warpsim = O0" column); an error when they differ."""
    if any(v != values[0] for v in values):
        raise ValueError("same(%s): the values differ" % ", ".join(str(v) for v in values))
    return values[0]


def evaluate(expr, sources):
    """The text the README must hold for one EXPR."""
    if expr.startswith("="):
        return expr[1:]
    if ":" not in expr:
        raise ValueError("%s: no :FORMAT (use :, or :.2f ...; =TEXT for a number that is not a figure)" % expr)
    code, fmt = expr.rsplit(":", 1)

    def launch(m):
        name, k = m.group(1), int(m.group(2))
        if name not in sources:
            raise ValueError("unknown source %s (a <!-- source %s: ... --> line must come first)" % (name, name))
        if not 1 <= k <= len(sources[name]):
            raise ValueError("source %s has %d launches, not %d" % (name, len(sources[name]), k))
        return "_S[%r][%d]" % (name, k - 1)

    # NAMEk. outside quoted strings (a regex such as r'run1.txt' is no launch)
    code = "".join(part if part[:1] in "'\"" else re.sub(r"\b([a-z]+)(\d+)(?=[.\[])", launch, part)
                   for part in re.split(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""", code))
    value = eval(code, {"__builtins__": {"abs": abs, "min": min, "max": max, "round": round, "len": len, "sum": sum,
                                         "range": range, "zip": zip}, "same": same,
                        "mean": mean, "launches": lambda name: sources[name], "_S": sources})
    return format(value, fmt)


def block_after(lines, i):
    """The lines of the block starting at line i: a fenced block up to its closing fence, else up to a blank line."""
    if i < len(lines) and lines[i].startswith("```"):
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        return lines[i:j + 1], j + 1
    j = i
    while j < len(lines) and lines[j].strip() and (j == i or not COMMENT_RE.match(lines[j])):
        j += 1
    return lines[i:j], j


COMMENT_RE = re.compile(r"<!-- (checked|source|figures)(?::| (\w+):)\s*(.*)$")


def comment_at(lines, i):
    """(kind, body, next line) for an HTML comment opening line i, which may run over several lines."""
    m = COMMENT_RE.match(lines[i])
    if not m:
        return None
    kind, name, rest, j = m.group(1), m.group(2), m.group(3), i
    body = []
    while "-->" not in rest:
        body.append(rest)
        j += 1
        if j == len(lines):
            raise ValueError("an unclosed <!-- %s comment" % kind)
        rest = lines[j]
    body.append(rest[:rest.index("-->")])
    return kind, name, "\n".join(body).strip(), j + 1


def masked(line, mask):
    """The line with each match of mask's group replaced by #; None when the mask would hide a non-number or
    leave the line without a letter."""
    if mask is None:
        return line
    out, last = [], 0
    for m in mask.finditer(line):
        if not re.fullmatch(r"-?[0-9][0-9.,]*", m.group(1)):
            return None
        out += [line[last:m.start(1)], "#"]
        last = m.end(1)
    out.append(line[last:])
    result = "".join(out)
    return result if re.search(r"[A-Za-z]", result) else None


def check_quoted(quoted, out, mask):
    """None when quoted lines appear in out in order (after masking), else the first line missing or refused."""
    if not quoted:
        return "(the block is empty)"
    outm = [masked(l, mask) for l in out]
    k = 0
    for q in quoted:
        qm = masked(q, mask)
        if qm is None:
            return "%s   <- the varies mask would hide all of this line or a non-number" % q
        while k < len(outm) and outm[k] != qm:
            k += 1
        if k == len(outm):
            return q
        k += 1
    return None


class Checker:
    def __init__(self, warpsim, run=None, skip_sizes=False, update=False, tool=None):
        self.warpsim, self.runs, self.failures, self.blocks, self.update = warpsim, {}, 0, 0, update
        self.skip_sizes, self.skipped = skip_sizes, 0
        self.run = run or self.run_warpsim
        self.tool = tool or self.run_tool

    def run_warpsim(self, args):
        key = tuple(args)
        if key not in self.runs:
            p = subprocess.run([self.warpsim, "run"] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            self.runs[key] = (p.returncode, [TMPDIR_RE.sub("/tmp/warpsim-XXXXXX/", l.rstrip())
                                             for l in p.stdout.split("\n")])
        return self.runs[key]

    def run_tool(self, argv):
        """A repository tool other than warpsim run (validate/compare): its exit status and lines."""
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.returncode, p.stdout.split("\n")

    def prefetch(self, texts):
        """Every run the READMEs ask for, on as many threads as the machine has CPUs (they are independent)."""
        wanted = []
        for text in texts:
            for kind, spec in re.findall(r"<!-- (checked|source \w+): ((?:(?!-->).)*)", text, re.S):
                spec = spec.strip()
                if kind == "checked":
                    wanted.append(shlex.split(spec.split(" ; ")[0]))
                elif spec.startswith("out:"):
                    wanted.append(shlex.split(spec[4:].split(" ; ")[0]))
                elif not re.match(r"(csv|mean\d+|arch|text|compare|timeline):", spec) and not self.skipping(spec):
                    wanted.append(shlex.split(spec) + ["--csv"])
        unique = list({tuple(a): a for a in wanted}.values())
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(self.run, unique))

    def skipping(self, spec):
        return self.skip_sizes and "validate/sizes/" in spec

    def arch_show(self, name):
        p = subprocess.run([self.warpsim, "arch", "show", name], stdout=subprocess.PIPE, text=True)
        if p.returncode != 0:
            raise ValueError("warpsim arch show %s: exit status %d" % (name, p.returncode))
        return p.stdout

    def fail(self, msg):
        print("FAIL: " + msg)
        self.failures += 1

    def source(self, spec):
        m = re.match(r"(csv|mean(\d+)):(\S+)$", spec)
        if m:
            return csv_launches(open(m.group(3)).read(), int(m.group(2) or 1))
        m = re.match(r"arch:(\S+)$", spec)
        if m:  # a preset's parameters, as one launch: `warpsim arch show NAME`'s `key = value` lines
            return [Launch(arch_parameters(self.arch_show(m.group(1))))]
        if spec.startswith("text:"):
            return self.text_files(spec[5:].split())
        if spec.startswith("out:"):
            return [self.run_text(spec[4:])]
        if spec.startswith("compare:"):
            return [self.compare_text(spec[8:])]
        if spec.startswith("timeline:"):
            return [self.timeline_text(spec[9:])]
        status, out = self.run(shlex.split(spec) + ["--csv"])
        if status != 0:
            raise ValueError("warpsim run %s --csv: exit status %d" % (spec, status))
        text = "\n".join(out)
        return csv_launches(text[text.index('"ID"'):])

    def text_files(self, patterns):
        """text:PATH...: one Text per file, a glob (run*.txt) expanded in sorted order; a pattern that names no
        file fails rather than leaving the figures nothing to check against."""
        texts = []
        for pattern in patterns:
            paths = sorted(glob.glob(pattern))
            if not paths:
                raise ValueError("text:%s: no such file" % pattern)
            texts += [Text(path, open(path).read()) for path in paths]
        return texts

    def run_text(self, spec):
        """out:ARGS[ ; status: N]: what `warpsim run ARGS` prints, as one Text; the run must exit with N (0)."""
        args, *options = spec.split(" ; ")
        want = int(options[0].split("status:")[1]) if options and "status:" in options[0] else 0
        status, out = self.run(shlex.split(args))
        if status != want:
            raise ValueError("warpsim run %s: exit status %d, not %d" % (args, status, want))
        return Text("warpsim run " + args, "\n".join(out))

    def compare_text(self, args):
        """compare:ARGS: validate/compare's report on the committed ncu CSVs against this warpsim, as one Text: a
        figure quoted from it (N of M exact metrics) is recomputed, not read back from a report written once."""
        argv = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validate", "compare"),
                "--warpsim", self.warpsim] + shlex.split(args)
        status, out = self.tool(argv)
        if status != 0:
            raise ValueError("validate/compare %s: exit status %d" % (args, status))
        return Text("validate/compare " + args, "\n".join(out))

    def timeline_text(self, args):
        """timeline:ARGS: the spans of `warpsim run ARGS --timeline`, one line each, so that a README's "GPU 1's
        first copy at 11,231 us" is read from the picture the reader opens in Perfetto."""
        fd, path = tempfile.mkstemp(suffix=".json", prefix="program_readmes-")
        os.close(fd)
        try:
            status, _ = self.tool([self.warpsim, "run"] + shlex.split(args) + ["--timeline", path])
            if status != 0:
                raise ValueError("warpsim run %s --timeline: exit status %d" % (args, status))
            return Text("the timeline of warpsim run " + args, timeline_lines(open(path).read()))
        finally:
            os.unlink(path)

    def check_text(self, path, text, require_sections=False):
        """Check one README; return its text (rewritten by --update)."""
        self.lines = lines = text.split("\n")
        sources, i, heading = {}, 0, ""
        while i < len(lines):
            try:
                c = comment_at(lines, i)
            except ValueError as e:
                self.fail("%s:%d: %s" % (path, i + 1, e)); return text
            if c is None:
                if lines[i].startswith("#"):
                    heading = lines[i]
                elif lines[i].strip():
                    block, nxt = block_after(lines, i)
                    if require_sections and FIGURE_SECTIONS.match(heading) and numbers_in("\n".join(block)):
                        self.fail("%s:%d: a block of figures under '%s' with no checked or figures comment before it"
                                  % (path, i + 1, heading))
                    i = max(nxt, i + 1)
                    continue
                i += 1
                continue
            kind, name, body, i = c
            where = "%s:%d" % (path, i)
            try:
                if kind == "source":
                    sources[name] = None if self.skipping(body) else self.source(body)
                    continue
                block, nxt = block_after(lines, i)
                self.blocks += 1
                if kind == "checked":
                    self.check_checked(where, body, block)
                else:
                    self.check_figures(where, body, block, sources)
                lines[i:nxt] = block   # --update may have rewritten it (as many lines)
                i = nxt
            except Exception as e:
                self.fail("%s: %s" % (where, e))
        return "\n".join(lines)

    def check_checked(self, where, body, block):
        args, *options = body.split(" ; ")
        opts = dict(o.split(": ", 1) for o in options)
        if set(opts) - {"varies", "status"}:
            raise ValueError("unknown option(s) %s (varies:, status:)" % ", ".join(set(opts) - {"varies", "status"}))
        mask = re.compile(opts["varies"]) if "varies" in opts else None
        if mask is not None and mask.groups != 1:
            raise ValueError("the varies REGEX must have exactly one group")
        if not block or not block[0].startswith("```"):
            raise ValueError("no fenced block after the checked comment")
        status, out = self.run(shlex.split(args))
        if status != int(opts.get("status", 0)):
            raise ValueError("warpsim run %s: exit status %d, not %s" % (args, status, opts.get("status", 0)))
        if self.update:
            k = 0
            for q in range(1, len(block) - 1):
                line = block[q].rstrip()
                hit = next((n for n in range(k, len(out)) if out[n] == line), None)
                if hit is None:
                    hit = next((n for n in range(k, len(out)) if skeleton(out[n]) == skeleton(line)), None)
                    if hit is not None:
                        block[q] = out[hit]
                k = hit + 1 if hit is not None else k
        missing = check_quoted([l.rstrip() for l in block[1:-1]], out, mask)
        if missing is not None:
            self.fail("%s, warpsim run %s: the README quotes a line the run does not print (in that order):\n    %s"
                      % (where, args, missing))
            print("  the run printed:\n" + "\n".join("    " + l for l in out[:60]))
        else:
            print("ok: %s, warpsim run %s: %d quoted lines" % (where, args, len(block) - 2))

    def check_figures(self, where, body, block, sources):
        exprs, found = expand_for_lines(body), numbers_in("\n".join(block))
        left_out = [n for n, v in sources.items() if v is None and re.search(r"\b%s\d+[.\[]" % n, body)]
        if left_out:
            print("skipped: %s: its figures from %s (validate/sizes/, --skip-sizes)" % (where, ", ".join(left_out)))
            self.skipped += 1
            return
        if not found:
            raise ValueError("a figures comment before a block with no number")
        if self.update and len(exprs) == len(found):
            joined, spans = "\n".join(block), number_spans("\n".join(block))
            for (a, b, text), expr in reversed(list(zip(spans, exprs))):
                joined = joined[:a] + evaluate(expr, sources) + joined[b:]
            block[:] = joined.split("\n")
            found = numbers_in(joined)
        for n, (expr, text) in enumerate(zip(exprs, found)):
            want = evaluate(expr, sources)
            if want != text:
                self.fail("%s: number %d of the block reads %s, but %s gives %s" % (where, n + 1, text, expr, want))
                return
        if len(exprs) != len(found):
            self.fail("%s: the block has %d numbers, the figures comment %d expressions (the first unmatched: %s)"
                      % (where, len(found), len(exprs),
                         found[len(exprs)] if len(found) > len(exprs) else exprs[len(found)]))
            return
        print("ok: %s: %d figures" % (where, len(found)))


def self_test():
    """The checker on hand-made READMEs: each case's expected failure count."""
    out = ["CPU sum (host, std::chrono): 12.5 ms", "GPU kernel: 3.31 us", "Check: OK"]
    fake_csv = ('"ID","Kernel Name","smsp__inst_executed.sum","gpu__time_duration.sum"\n"","","inst","ns"\n'
                '"0","k","1,024","3,310.00"\n"1","k","2,048","3,290.00"\n')
    csv_out = out + fake_csv.strip().split("\n")

    def run(args):
        return 0, (csv_out if "--csv" in args else out)

    def tool(argv):  # validate/compare: passes with O0, fails (exit 1) with O4; warpsim run --timeline
        if "--timeline" in argv:
            open(argv[-1], "w").write(json.dumps({"traceEvents": [
                {"name": "thread_name", "ph": "M", "pid": 1, "tid": 10, "args": {"name": "compute"}},
                {"name": "thread_name", "ph": "M", "pid": 1, "tid": 100, "args": {"name": "stream 0 (default)"}},
                {"name": "scale_add", "ph": "X", "pid": 1, "tid": 100, "ts": 12854.35, "dur": 8.03},
                {"name": "scale_add", "ph": "X", "pid": 1, "tid": 10, "ts": 12854.35, "dur": 8.03}]}))
            return 0, []
        return (1 if "O4" in argv else 0), ["", "3281 of 3287 exact metrics match (NVIDIA H100 80GB HBM3)"]

    mask = " ; varies: ([0-9.]+) ms"
    tmp = tempfile.mkdtemp(prefix="program_readmes-")  # two runs' stdout, as validate/programs commits them
    for k, (buggy, us) in enumerate([(4503, "1,227.71"), (4501, "1,224.50")]):
        open(os.path.join(tmp, "p.run%d.txt" % (k + 1)), "w").write(
            "buggy %d, fixed 32640\nh2d_pinned_64MiB %s us\nrun1.txt: 7 wrong\n=== error\n=== error\n" % (buggy, us))
    runs = "<!-- source t: text:%s/p.run*.txt -->\n" % tmp
    cases = [
        ("verbatim", "<!-- checked: p.cu -->\n```\nGPU kernel: 3.31 us\nCheck: OK\n```\n", 0),
        ("changed figure", "<!-- checked: p.cu -->\n```\nGPU kernel: 3.30 us\n```\n", 1),
        ("unmasked host time", "<!-- checked: p.cu -->\n```\nCPU sum (host, std::chrono): 9.9 ms\n```\n", 1),
        ("masked host time", "<!-- checked: p.cu%s -->\n```\nCPU sum (host, std::chrono): 9.9 ms\n```\n" % mask, 0),
        ("mask hides a whole line", "<!-- checked: p.cu ; varies: ^(.*)$ -->\n```\nanything\n```\n", 1),
        ("mask hides a word", "<!-- checked: p.cu ; varies: (GPU) -->\n```\nCPU kernel: 3.31 us\n```\n", 1),
        ("status expected", "<!-- checked: p.cu ; status: 1 -->\n```\nCheck: OK\n```\n", 1),
        ("figures right", "<!-- source w: p.cu -->\n<!-- figures: w1.inst:, w2.inst/w1.inst:.1f w1.us:.2f =8 "
         "w1.inst-w2.inst:, -->\nv1 does 1,024 warp-instructions, v2 2.0 times more, in 3.31 us on 8 `sm_90` SMs "
         "(2026-11-22; k-1; -1,024).\n", 0),
        ("figures wrong", "<!-- source w: p.cu -->\n<!-- figures: w1.inst:, -->\n| 1,025 |\n", 1),
        ("a number left unexplained", "<!-- source w: p.cu -->\n<!-- figures: w1.inst:, -->\n1,024 and 7\n", 1),
        ("an expression too many", "<!-- source w: p.cu -->\n<!-- figures: w1.inst:, =3 -->\n1,024\n", 1),
        ("for lines", "<!-- source w: p.cu -->\n<!-- figures:\nfor $ in 1 2: =$ w$.inst:,\n-->\n"
         "| 1 | 1,024 |\n| 2 | 2,048 |\n", 0),
        ("unknown source", "<!-- figures: x1.inst:, -->\n1,024\n", 1),
        ("figures with no comment", "## Figures\n\nwarp-instructions: 1,024\n", 1),
        ("words with no comment", "## Figures\n\nno number here\n", 0),
        ("text figures", runs + "<!-- figures: t1.num(r'buggy (\\d+)'):d t2.num(r'buggy (?P<n>\\d+), fixed'):d "
         "mean(t.num(r'h2d\\w* ([\\d,.]+)') for t in launches('t')):.2f t1.nums(r'\\d+')[1]:, "
         "t1.num(r'run1.txt: (\\d+) wrong'):d t1.count(r'^=== error'):d len(launches('t')):d -->\n"
         "On the card the buggy sum was 4503, then 4501; 1226.11 us (32,640 expected); 7 wrong; 2 errors; 2 runs.\n", 0),
        ("an exponent is one number", "<!-- figures: =3.32e-07 =2.98e-08 -->\n__sinf 3.32e-07 against 2.98e-08\n", 0),
        ("text figure wrong", runs + "<!-- figures: t1.num(r'buggy (\\d+)'):, -->\nbuggy 4502\n", 1),
        ("text regex finds nothing", runs + "<!-- figures: t1.num(r'summed (\\d+)'):, -->\nbuggy 4503\n", 1),
        ("text k-th match missing", runs + "<!-- figures: t1.num(r'buggy (\\d+)', 2):, -->\nbuggy 4503\n", 1),
        ("text no such file", "<!-- source t: text:%s/none*.txt -->\n<!-- figures: =1 -->\n1\n" % tmp, 1),
        ("out of a run", "<!-- source o: out:p.cu -->\n<!-- figures: o1.num(r'GPU kernel: ([\\d.]+)'):.2f -->\n"
         "3.31 us\n", 0),
        ("compare's line", "<!-- source c: compare:--mode O0 -->\n<!-- figures: c1.num(r'^(\\d+) of'):d "
         "c1.num(r'of (\\d+) exact'):d c1.num(r'of (\\d+) exact')-c1.num(r'^(\\d+) of'):d -->\n3281 of 3287; 6 others\n", 0),
        ("compare's line drifted", "<!-- source c: compare:--mode O0 -->\n<!-- figures: c1.num(r'^(\\d+) of'):d -->\n"
         "3280 exact\n", 1),
        ("compare fails", "<!-- source c: compare:--mode O4 -->\n<!-- figures: =1 -->\n1\n", 1),
        ("timeline", "<!-- source t: timeline:p.cu -->\n<!-- figures: =1 t1.num(r'^GPU 1 \\| compute \\| scale_add \\| ts ([\\d.]+)'):,.2f "
         "t1.num(r'dur ([\\d.]+)'):.2f t1.count(r'scale_add'):d -->\nGPU 1's kernel from 12,854.35 us, 8.03 us long, 1 span\n", 0),
        ("out with a wrong status", "<!-- source o: out:p.cu ; status: 1 -->\n<!-- figures: =1 -->\n1\n", 1),
    ]
    bad, stdout = 0, sys.stdout
    for name, text, want in cases:
        sys.stdout = io.StringIO()  # the checker's own lines, shown only when a case goes wrong
        c = Checker("warpsim", run, tool=tool)
        c.check_text("<%s>" % name, text, True)
        said, sys.stdout = sys.stdout.getvalue(), stdout
        if c.failures != want:
            print(said + "SELF-TEST FAIL: %s: %d failure(s), expected %d" % (name, c.failures, want))
            bad += 1
    shutil.rmtree(tmp)
    print("self-test: %d of %d cases right" % (len(cases) - bad, len(cases)))
    return bad


def main(argv):
    if argv[1:] == ["--self-test"]:
        return 1 if self_test() else 0
    skip_sizes, update = "--skip-sizes" in argv[1:3], "--update" in argv[1:3]
    argv = [a for a in argv if a not in ("--skip-sizes", "--update")]
    checker = Checker(argv[1], skip_sizes=skip_sizes, update=update)
    checker.prefetch([open(path).read() for path in argv[2:]])
    for path in argv[2:]:
        text = open(path).read()
        new = checker.check_text(path, text, re.match(r"(.*/)?programs/\d{3}_\w+/README\.md$", path) is not None)
        if update and new != text:
            open(path, "w").write(new)
            print("updated: %s" % path)
    if checker.blocks == 0:
        checker.fail("no checked or figures block in any README")
    print("%d block(s), %d skipped, %d failure(s)" % (checker.blocks, checker.skipped, checker.failures))
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
