#!/usr/bin/env python3
"""The CI recipes in docs/ci/ cannot rot: both files parse as YAML, and every `run:` (GitHub
Actions) or `script:` (GitLab CI) that calls contend runs here, against this build, in a scratch
directory — each matrix entry / parallel node, jobs in file order, sharing one directory the way
artifacts would. Setup steps (checkout, bootstrap, artifact actions) are not run: `contend` is on
PATH from this build instead. The nightly seed range is cut down (SEEDS below).

    ci_recipes_test.py CONTEND_BINARY SOURCE_DIR WORK_DIR
"""

import itertools
import os
import re
import shutil
import subprocess
import sys

import yaml

contend, source, work = sys.argv[1:4]
OVERRIDES = {"SEEDS": "1..40"}  # the nightly range, cut down for the test suite
failures = []
ran = {}


def expect(condition, what, detail=""):
    if not condition:
        failures.append(what + ("\n" + detail[-3000:] if detail else ""))


def calls_contend(script):
    return re.search(r"(^|[\s;|&(])contend\s", script) is not None


def run_script(kind, label, script, env, cwd):
    env = dict(os.environ, **{k: str(v) for k, v in env.items()})
    env.update(OVERRIDES)
    env["PATH"] = os.path.dirname(contend) + os.pathsep + env["PATH"]
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                       cwd=cwd, env=env, capture_output=True, text=True)
    ran[kind] = ran.get(kind, 0) + 1
    expect(r.returncode == 0, "%s %s exited %d" % (kind, label, r.returncode), r.stdout + r.stderr)
    # Every file a --report or --out names exists afterwards.
    for path in re.findall(r"--report\s+\w+=(\S+)|--out\s+(\S+)", expand(script, env)):
        path = next(p for p in path if p)
        expect(os.path.exists(os.path.join(cwd, path)), "%s %s did not write %s" % (kind, label, path))
    return r


def expand(script, env):
    return re.sub(r"\$\{?(\w+)\}?", lambda m: str(env.get(m.group(1), m.group(0))), script)


def scratch(kind):
    d = os.path.join(work, kind)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    os.symlink(os.path.join(source, "scenarios"), os.path.join(d, "scenarios"))
    return d


def load(name):
    with open(os.path.join(source, "docs", "ci", name), encoding="utf-8") as f:
        return yaml.safe_load(f)


# ---- GitHub Actions
gh = load("github-actions.yml")
cwd = scratch("github")
for job_name, job in gh["jobs"].items():
    matrix = (job.get("strategy") or {}).get("matrix") or {}
    keys = [k for k in matrix if k not in ("include", "exclude")]
    combos = [dict(zip(keys, values)) for values in itertools.product(*(matrix[k] for k in keys))]
    if "SHARDS" in (job.get("env") or {}):
        expect(int(job["env"]["SHARDS"]) == len(matrix.get("shard", [])),
               "github %s: SHARDS is not the number of matrix shards" % job_name)
    for combo in combos or [{}]:
        def evaluate(text):
            def value(m):
                expr = m.group(1).strip()
                if expr.startswith("matrix.") and expr[7:] in combo:
                    return str(combo[expr[7:]])
                failures.append("github %s: cannot evaluate ${{ %s }} here" % (job_name, expr))
                return ""
            return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))

        for step in job["steps"]:
            script = step.get("run")
            if not script or not calls_contend(script):
                continue
            env = {}
            for scope in (gh.get("env"), job.get("env"), step.get("env")):
                env.update({k: evaluate(v) for k, v in (scope or {}).items()})
            run_script("github", "%s %s: %s" % (job_name, combo, step.get("name", "")),
                       evaluate(script), env, cwd)
expect(os.path.exists(os.path.join(cwd, "reports", "merged.json")), "github: no merged report")

# ---- GitLab CI
gl = load("gitlab-ci.yml")
cwd = scratch("gitlab")
for job_name, job in gl.items():
    if job_name.startswith(".") or not isinstance(job, dict) or "script" not in job:
        continue
    template = {}
    for parent in ([job["extends"]] if isinstance(job.get("extends"), str) else
                   job.get("extends", [])):
        template.update(gl[parent])
    script = "\n".join(job["script"])
    if not calls_contend(script):
        continue
    variables = dict(gl.get("variables") or {})
    variables.update(template.get("variables") or {})
    variables.update(job.get("variables") or {})
    nodes = int(job.get("parallel", 1))
    for node in range(1, nodes + 1):
        env = dict(variables, CI_NODE_INDEX=node, CI_NODE_TOTAL=nodes)
        run_script("gitlab", "%s %d/%d" % (job_name, node, nodes), script, env, cwd)
expect(os.path.exists(os.path.join(cwd, "reports", "merged.json")), "gitlab: no merged report")

# Quick gate + proof + 4 shards + merge in each file: the recipes lost no step.
expect(ran.get("github") == 7, "github: %s contend steps ran, expected 7" % ran.get("github"))
expect(ran.get("gitlab") == 7, "gitlab: %s contend scripts ran, expected 7" % ran.get("gitlab"))

shutil.rmtree(work, ignore_errors=True)
for failure in failures:
    print("FAILED: " + failure)
print("%d contend steps run, %d failure(s)" % (sum(ran.values()), len(failures)))
sys.exit(1 if failures else 0)
