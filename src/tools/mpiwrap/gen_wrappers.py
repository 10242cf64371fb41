#!/usr/bin/env python3
"""Generates the PMPI wrappers of a jobsentry preload module (rma-check's, trace's)
from a list of prototypes, so that every interposed call has the same shape.

Usage: gen_wrappers.py NAMESPACE PROTOS OUT_CPP OUT_HEADER

Each line of PROTOS is 'CLASS | C prototype'. Every wrapper is extern "C",
noexcept and enters the module's reentry guard (NAMESPACE::Reentry, built on
mpiwrap/reentry.h, declared in the module's guard.h); nested MPI calls (MPI's
own use of its API) and calls while the module is inactive go straight to PMPI.
Then, by class:
  hook          returns NAMESPACE::on_<name>(site, args...), hand-written, which calls PMPI itself
  timed         calls PMPI between two clock readings, then NAMESPACE::after_<name>(start, args...)
  coll:all      calls PMPI, then NAMESPACE::record_collective(site, comm, kind, root, request)
  coll:bcast R  ... with root parameter R; coll:gather R likewise (the RMA checker's orderings)
The body of each wrapper takes the call site as its first argument, so that
the Fortran bindings generated beside it (fortran_binding below: mpi_put_ and
so on, gfortran's names for `include 'mpif.h'` and `use mpi`, and mpi_put_f08_
for Open MPI's `use mpi_f08`) reach the same
hooks with the Fortran caller's site: they convert the Fortran handles
(MPI_*_f2c / c2f), statuses, 1-based indices and the MPI_BOTTOM / MPI_IN_PLACE
sentinels (mpiwrap/fortran_sentinels.h) and call the body. Calls whose
prototype has a type the table below does not know get no Fortran binding.
"""
import re
import sys

CLASSES = ("hook", "timed", "coll:all", "coll:bcast", "coll:gather")


def split_params(text):
    text = text.strip()
    if text in ("", "void"):
        return []
    params = []
    for raw in text.split(","):
        raw = raw.strip()
        m = re.match(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)\s*(\[\s*\])?$", raw)
        if not m:
            sys.exit(f"gen_wrappers: cannot parse parameter '{raw}'")
        params.append((raw, m.group(2)))
    return params


def parse(path):
    calls = []
    for number, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "|" not in line:
            sys.exit(f"{path}:{number}: expected 'CLASS | prototype'")
        cls, proto = (part.strip() for part in line.split("|", 1))
        m = re.match(r"^int\s+(MPI_\w+)\s*\((.*)\)$", proto)
        if not m:
            sys.exit(f"{path}:{number}: expected 'int MPI_Name(params)', got '{proto}'")
        name, params = m.group(1), split_params(m.group(2))
        words = cls.split()
        if words[0] not in CLASSES:
            sys.exit(f"{path}:{number}: unknown class '{words[0]}' (known: {', '.join(CLASSES)})")
        names = [n for _, n in params]
        if words[0] in ("coll:bcast", "coll:gather") and (len(words) != 2 or words[1] not in names):
            sys.exit(f"{path}:{number}: {words[0]} needs the name of its root parameter")
        if words[0].startswith("coll") and "comm" not in names:
            sys.exit(f"{path}:{number}: a collective needs a 'comm' parameter")
        calls.append((words, name, params))
    return calls


def guard_args(params):
    """The reentry guard's arguments: the call's buffers (void * parameters but MPI_Win_allocate's
    baseptr, where MPI stores an address) and its window, so a module knows what memory MPI may touch."""
    buffers = [n for raw, n in params if c_type(raw, n) in ("void *", "const void *") and n != "baseptr"]
    win = [n for raw, n in params if c_type(raw, n) == "MPI_Win"]
    if not buffers and not win:
        return ""
    return "({" + ", ".join(buffers) + "}, " + (win[0] if win else "MPI_WIN_NULL") + ")"


def wrapper(ns, words, name, params):
    decl = ", ".join(p for p, _ in params) or "void"
    args = ", ".join(n for _, n in params)
    tail = "".join(", " + n for _, n in params)
    body = [f"static int body_{name}(const void* site{tail and ', ' + decl}) noexcept {{",
            f"    {ns}::Reentry guard{guard_args(params)};",
            f"    if (!guard.outermost()) return P{name}({args});"]
    if words[0] == "hook":
        body += [f"    return {ns}::on_{name}(site{tail});"]
    elif words[0] == "timed":
        body += ["    (void)site;",
                 f"    const std::uint64_t start = {ns}::now_ns();",
                 f"    int rc = P{name}({args});",
                 f"    if (rc == MPI_SUCCESS) {ns}::after_{name}(start{tail});",
                 "    return rc;"]
    else:
        kind = f"{ns}::CollKind::" + words[0].split(":")[1]
        root = words[1] if len(words) > 1 else "-1"
        # A nonblocking collective (a 'request' parameter) synchronises at its completion.
        request = "request" if "request" in [n for _, n in params] else "nullptr"
        body += [f"    int rc = P{name}({args});",
                 f"    if (rc == MPI_SUCCESS) {ns}::record_collective(site, comm, {kind}, {root}, {request});",
                 "    return rc;"]
    body += ["}", "",
             f"int {name}({decl}) noexcept {{",
             f"    return body_{name}(jobsentry::call_site(__builtin_return_address(0)){tail});",
             "}", ""]
    return body


# Fortran bindings. Each C parameter type: the Fortran argument's C type, how the C value is made
# from it (before the call) and written back (after it), and (for output parameters) how it is
# passed when not as {n}. {n} is the parameter's name, {f} its Fortran argument, {count} the call's
# count parameter.
HANDLES = ("Comm", "Datatype", "Win", "Op", "Info", "Group", "Request")
FORTRAN_TYPES = {
    "int": ("MPI_Fint*", "int {n} = static_cast<int>(*{f});", ""),
    "int *": ("MPI_Fint*", "int {n} = static_cast<int>(*{f});", "*{f} = static_cast<MPI_Fint>({n});", "&{n}"),
    "MPI_Aint": ("MPI_Aint*", "MPI_Aint {n} = *{f};", ""),
    "const void *": ("void*", "const void* {n} = jobsentry::fortran_buffer({f});", ""),
    "void *": ("void*", "void* {n} = jobsentry::fortran_buffer({f});", ""),
    "MPI_Status *": ("MPI_Fint*", "MPI_Status {n}_c{{}}; MPI_Status* {n} = {f} == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : &{n}_c;",
                     "if ({n} != MPI_STATUS_IGNORE) MPI_Status_c2f({n}, {f});"),
    "MPI_Status array_of_statuses[]": (
        "MPI_Fint*",
        "std::vector<MPI_Status> {n}_c(static_cast<size_t>({count})); "
        "MPI_Status* {n} = {f} == MPI_F_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : {n}_c.data();",
        "if ({n} != MPI_STATUSES_IGNORE) for (int i = 0; i < {count}; ++i) "
        "MPI_Status_c2f(&{n}[i], {f} + i * static_cast<int>(sizeof(MPI_Status) / sizeof(MPI_Fint)));"),
    "MPI_Request array_of_requests[]": (
        "MPI_Fint*",
        "std::vector<MPI_Request> {n}_c(static_cast<size_t>({count})); "
        "for (int i = 0; i < {count}; ++i) {n}_c[i] = MPI_Request_f2c({f}[i]); MPI_Request* {n} = {n}_c.data();",
        "for (int i = 0; i < {count}; ++i) {f}[i] = MPI_Request_c2f({n}[i]);"),
    "int array_of_indices[]": ("MPI_Fint*", "std::vector<int> {n}_c(static_cast<size_t>({count})); int* {n} = {n}_c.data();",
                               "for (int i = 0; i < {count}; ++i) {f}[i] = static_cast<MPI_Fint>({n}[i]);"),
}
for h in HANDLES:
    conv = "Type" if h == "Datatype" else h  # MPI_Type_f2c, not MPI_Datatype_f2c
    FORTRAN_TYPES[f"MPI_{h}"] = ("MPI_Fint*", f"MPI_{h} {{n}} = MPI_{conv}_f2c(*{{f}});", "")
    FORTRAN_TYPES[f"MPI_{h} *"] = ("MPI_Fint*", f"MPI_{h} {{n}} = MPI_{conv}_f2c(*{{f}});",
                                   f"*{{f}} = MPI_{conv}_c2f({{n}});", "&{n}")
for array in ("sendcounts", "recvcounts", "displs", "sdispls", "rdispls"):
    # MPI_Fint is int wherever these modules build (checked below): the arrays are the same memory.
    FORTRAN_TYPES[f"const int {array}[]"] = ("const MPI_Fint*", "const int* {n} = {f};", "")

# Fortran's indices are 1-based: the C call's 0-based ones are turned after it.
ONE_BASED = {"index": "if (rc == MPI_SUCCESS && *{f} != MPI_UNDEFINED) *{f} += 1;",
             "array_of_indices": "if (rc == MPI_SUCCESS && outcount != MPI_UNDEFINED) "
                                 "for (int i = 0; i < outcount; ++i) {f}[i] += 1;"}


def c_type(raw, pname):
    """'const void *buf' -> 'const void *'; 'MPI_Request array_of_requests[]' stays whole."""
    if raw.endswith("[]"):
        return raw
    return raw[: raw.rindex(pname)].strip().replace(" *", " *").replace("*", " *").replace("  ", " ").strip()


def fortran_binding(name, params):
    if name == "MPI_Init":  # mpi_init(ierr): no command line from Fortran
        fparams, before, after, args = [], [], [], ["nullptr", "nullptr"]
    elif name == "MPI_Init_thread":
        fparams = ["MPI_Fint* required", "MPI_Fint* provided"]
        before = ["int required_c = static_cast<int>(*required); int provided_c = 0;"]
        after = ["*provided = static_cast<MPI_Fint>(provided_c);"]
        args = ["nullptr", "nullptr", "required_c", "&provided_c"]
    else:
        fparams, before, after, args = [], [], [], []
        counts = [n for _, n in params if n in ("count", "incount")]
        for raw, n in params:
            t = c_type(raw, n)
            if t not in FORTRAN_TYPES:
                return None
            ftype, pre, post, *passed = FORTRAN_TYPES[t]
            f = "f_" + n
            fparams.append(f"{ftype} {f}")
            fmt = {"n": n, "f": f, "count": counts[0] if counts else "0"}
            before.append(pre.format(**fmt))
            if post:
                after.append(post.format(**fmt))
            if n in ONE_BASED:
                after.append(ONE_BASED[n].format(**fmt))
            args.append((passed[0] if passed else "{n}").format(**fmt))
    sig = ", ".join(fparams + ["MPI_Fint* ierr"])
    body = [f"static void fortran_{name}(const void* site, {sig}) noexcept {{"]
    body += ["    " + b for b in before]
    body += [f"    const int rc = body_{name}(site{''.join(', ' + a for a in args)});"]
    body += ["    " + a for a in after]
    body += ["    if (ierr) *ierr = static_cast<MPI_Fint>(rc);  // optional in use mpi_f08", "}", ""]
    names = ", ".join([p.rsplit(" ", 1)[1] for p in fparams] + ["ierr"])
    # mpi_put_: include 'mpif.h' and use mpi; mpi_put_f08_: Open MPI's use mpi_f08, whose handles
    # (TYPE(MPI_Win): one INTEGER) and statuses are laid out as those INTEGERs, and whose ierror
    # may be absent. (MPICH's mpi_f08 calls the C functions: the C wrappers see those, call_site.h.)
    for fname in (name.lower() + "_", name.lower() + "_f08_"):
        body += [f"void {fname}({sig}) noexcept {{",
                 f"    fortran_{name}(__builtin_return_address(0), {names});", "}", ""]
    return body


def declaration(words, name, params):
    tail = "".join(", " + p for p, _ in params)
    if words[0] == "hook":
        return f"int on_{name}(const void* site{tail});"
    if words[0] == "timed":
        return f"void after_{name}(std::uint64_t start{tail}) noexcept;"
    return None


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: gen_wrappers.py NAMESPACE PROTOS OUT_CPP OUT_HEADER")
    ns, protos, out_cpp, out_h = sys.argv[1:5]
    calls = parse(protos)
    source = protos.rsplit("/", 1)[-1]
    h = [f"// Generated by mpiwrap/gen_wrappers.py from {source}: do not edit.",
         "// The hand-written hooks must match these declarations.",
         "#pragma once", "#include <cstdint>", "#include <mpi.h>", "", f"namespace {ns} {{"]
    h += [d for d in (declaration(*call) for call in calls) if d]
    c = [f"// Generated by mpiwrap/gen_wrappers.py from {source}: do not edit.",
         "#include <vector>", '#include "wrappers_gen.h"', '#include "guard.h"',
         '#include "tools/mpiwrap/call_site.h"', '#include "tools/mpiwrap/fortran_sentinels.h"', "",
         'static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are passed as int arrays");',
         "", 'extern "C" {', ""]
    for call in calls:
        c += wrapper(ns, *call)
    c += ["// Fortran bindings (gfortran's names): the same bodies, the Fortran caller's site."]
    for words, name, params in calls:
        c += fortran_binding(name, params) or [f"// {name}: no Fortran binding (a parameter type the table lacks)", ""]
    h += ["", f"}}  // namespace {ns}", ""]
    c += ['}  // extern "C"', ""]
    open(out_h, "w").write("\n".join(h))
    open(out_cpp, "w").write("\n".join(c))


if __name__ == "__main__":
    main()
