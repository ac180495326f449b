"""Runs one generated script with INPUT_PATH and OUTPUT_PATH defined, inside the sandbox.

Usage: run_script.py <script> <input workbook> <output workbook>
Exit 0 when the script finished; exit 2 with the traceback on stderr when it raised.
"""

import sys
import traceback

script_path, input_path, output_path = sys.argv[1:4]
with open(script_path, encoding="utf-8") as script_file:
    source = script_file.read()
namespace = {"__name__": "__main__", "__file__": script_path, "INPUT_PATH": input_path, "OUTPUT_PATH": output_path}
try:
    exec(compile(source, "solution.py", "exec"), namespace)
except SystemExit as stop:
    if stop.code not in (None, 0):
        print("the script exited with status %r" % (stop.code,), file=sys.stderr)
        sys.exit(2)
except BaseException:
    traceback.print_exc()
    sys.exit(2)
