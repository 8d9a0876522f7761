import os, resource, subprocess, sys, glob, json
reps = int(sys.argv[1])
for flags in ([], ["--verify-each=0"], ["--disable-lsr"], ["--verify-each=0", "--disable-lsr"]):
    for f in sorted(glob.glob("examples/*.mlir")):
        cpus = []
        for _ in range(reps):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(["build/bin/softmax-opt", f, *flags, "--softmax-raise", "--softmax-to-nvvm", "-o", "/dev/null"], check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3)
        print(json.dumps({"flags": " ".join(flags), "file": os.path.basename(f), "min_cpu_ms": round(min(cpus), 1), "reps": reps, "load": os.getloadavg()[0]}), flush=True)
