"""Workbook tools of @skillopt/env-spreadsheetbench, run inside the sandbox.

One request as JSON on stdin, one reply as JSON on stdout:
  {"command": "versions"}
  {"command": "preview", "path": ..., "rows": 5, "columns": 20}
  {"command": "evaluate", "checks": [{"gold": ..., "prediction": ..., "position": ...}], "report_cells": 200}
  {"command": "describe", "tasks": [{"cases": [{"input": ..., "answer": ...}], "position": ...}], "identify": 8}

The evaluator follows the official SpreadsheetBench rules: workbooks are opened with
data_only=True (cached values, so a formula openpyxl wrote has none), every answer cell is compared
after the same value transform, and styles are ignored.
"""

import datetime
import json
import sys

import openpyxl
from openpyxl.utils import column_index_from_string, get_column_letter
from openpyxl.utils.cell import coordinate_from_string, range_boundaries

EXCEL_EPOCH = datetime.datetime(1899, 12, 30)
PREVIEW_VALUE_CHARACTERS = 40
PREVIEW_ROWS = 5
PREVIEW_COLUMNS = 20


def parse_position(position):
    """(sheet name or None, range) pairs of an answer position such as "'Sheet1'!A1:B3,C5"."""
    parts = []
    for part in str(position).split(","):
        part = part.strip()
        if part == "":
            continue
        if "!" in part:
            sheet, cell_range = part.split("!", 1)
            sheet = sheet.strip().strip("'\"").strip()
        else:
            sheet, cell_range = None, part
        parts.append((sheet, cell_range.strip().strip("'\"").strip()))
    return parts


def range_cells(cell_range):
    """Coordinates of a range, column by column (all rows of A, then B), as the official evaluator reads it."""
    if ":" not in cell_range:
        column, row = coordinate_from_string(cell_range)
        return ["%s%d" % (column, row)]
    min_column, min_row, max_column, max_row = range_boundaries(cell_range)
    return [
        "%s%d" % (get_column_letter(column), row)
        for column in range(min_column, max_column + 1)
        for row in range(min_row, max_row + 1)
    ]


def answer_cells(workbook, position):
    """(sheet name, coordinate) of every answer cell; a bare range is on the workbook's first sheet."""
    cells = []
    for sheet, cell_range in parse_position(position):
        name = sheet if sheet is not None else workbook.sheetnames[0]
        cells.extend((name, coordinate) for coordinate in range_cells(cell_range))
    return cells


def transform(value):
    """The official cell transform: numbers rounded to 2 places, datetimes as Excel serials, times as HH:MM."""
    if isinstance(value, (bool, int, float)):
        return round(float(value), 2)
    if isinstance(value, datetime.time):
        return str(value)[:-3]
    if isinstance(value, datetime.datetime):
        delta = value - EXCEL_EPOCH
        return round(delta.days + delta.seconds / 86400.0, 0)
    if isinstance(value, str):
        try:
            return round(float(value), 2)
        except ValueError:
            return value
    return value


def values_match(expected, got):
    if expected in ("", None) and got in ("", None):
        return True
    return type(expected) is type(got) and expected == got


def encode(value):
    """A cell value as JSON: numbers, strings, booleans and null as they are, dates and times tagged."""
    if isinstance(value, datetime.datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"datetime": datetime.datetime(value.year, value.month, value.day).isoformat()}
    if isinstance(value, datetime.time):
        return {"time": value.isoformat()}
    if isinstance(value, datetime.timedelta):
        return {"duration_seconds": value.total_seconds()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def open_values(path):
    return openpyxl.load_workbook(path, data_only=True)


def evaluate(check, report_cells):
    try:
        gold = open_values(check["gold"])
    except Exception as error:  # the gold workbook is ours: a failure here is a data error, said as such
        return {"pass": False, "reason": "gold workbook unreadable: %s" % error, "dataError": True, "mismatches": [], "cells": []}
    try:
        prediction = open_values(check["prediction"])
    except FileNotFoundError:
        return {"pass": False, "reason": "output workbook not found", "mismatches": [], "cells": []}
    except Exception as error:
        return {"pass": False, "reason": "output workbook unreadable: %s" % str(error)[:300], "mismatches": [], "cells": []}
    try:
        cells = answer_cells(gold, check["position"])
    except Exception as error:
        return {"pass": False, "reason": "answer position unreadable: %s" % error, "dataError": True, "mismatches": [], "cells": []}
    mismatches = []
    report = []
    missing_sheets = []
    for sheet, coordinate in cells:
        if sheet not in gold.sheetnames:
            return {"pass": False, "reason": "answer sheet %s missing from the gold workbook" % sheet, "dataError": True, "mismatches": [], "cells": []}
        expected = gold[sheet][coordinate].value
        if sheet not in prediction.sheetnames:
            if sheet not in missing_sheets:
                missing_sheets.append(sheet)
            got, found = None, False
        else:
            got, found = prediction[sheet][coordinate].value, True
        matched = found and values_match(transform(expected), transform(got))
        entry = {"cell": "%s!%s" % (sheet, coordinate), "expected": encode(expected), "got": encode(got), "match": matched}
        if not matched:
            mismatches.append(entry)
        if len(report) < report_cells and not (expected in ("", None) and got in ("", None)):
            report.append(entry)
    if missing_sheets:
        reason = "worksheet not found: %s" % ", ".join(missing_sheets)
    elif mismatches:
        first = mismatches[0]
        reason = "%d of %d answer cells differ, first %s" % (len(mismatches), len(cells), first["cell"])
    else:
        reason = None
    return {"pass": not mismatches, "reason": reason, "cellCount": len(cells), "mismatches": mismatches, "cells": report}


def preview(path, rows, columns):
    workbook = openpyxl.load_workbook(path, data_only=False)
    lines = []
    for sheet in workbook.worksheets:
        lines.append(
            "## Sheet: %s  (dimensions %s, %d rows, %d columns)" % (sheet.title, sheet.dimensions, sheet.max_row, sheet.max_column)
        )
        for row in sheet.iter_rows(min_row=1, max_row=min(rows, sheet.max_row), max_col=min(columns, sheet.max_column)):
            shown = []
            for cell in row:
                value = "" if cell.value is None else str(cell.value)
                if len(value) > PREVIEW_VALUE_CHARACTERS:
                    value = value[: PREVIEW_VALUE_CHARACTERS - 3] + "..."
                shown.append("%s=%s" % (cell.coordinate, value))
            lines.append(" | ".join(shown))
        if sheet.max_row > rows:
            lines.append("... (%d more rows)" % (sheet.max_row - rows))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def input_cells(workbook):
    values = {}
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.value is not None:
                    values[(sheet.title, cell.coordinate)] = cell.value
    return values


def cell_order(key):
    column, row = coordinate_from_string(key[1])
    return (key[0], column_index_from_string(column), row)


def identifying_keys(own, others, limit):
    """Input cells whose values tell this case from every other case: first a few that together
    differ from each other case somewhere (greedy, in sheet and column order), then more that differ
    from at least one, up to the limit."""
    candidates = sorted(own, key=cell_order)
    differing = {key: {position for position, other in enumerate(others) if other.get(key) != own[key]} for key in candidates}
    chosen = []
    uncovered = set(range(len(others)))
    while uncovered and len(chosen) < limit:
        best = max(candidates, key=lambda key: len(differing[key] & uncovered), default=None)
        if best is None or not differing[best] & uncovered:
            break
        chosen.append(best)
        uncovered -= differing[best]
    for key in candidates:
        if len(chosen) >= limit:
            break
        if key not in chosen and differing[key]:
            chosen.append(key)
    return sorted(chosen, key=cell_order)


def describe(task, identify_limit):
    """Each case's answer cells (cached values) and the input cells that tell its input from the others'."""
    position = task["position"]
    inputs = [input_cells(open_values(case["input"])) for case in task["cases"]]
    described = []
    for index, case in enumerate(task["cases"]):
        answer = open_values(case["answer"])
        cells = [
            {"sheet": sheet, "cell": coordinate, "value": encode(answer[sheet][coordinate].value if sheet in answer.sheetnames else None)}
            for sheet, coordinate in answer_cells(answer, position)
        ]
        own = inputs[index]
        others = [values for other, values in enumerate(inputs) if other != index]
        identify = [{"sheet": key[0], "cell": key[1], "value": encode(own[key])} for key in identifying_keys(own, others, identify_limit)]
        described.append({"cells": cells, "identify": identify})
    return {"cases": described, "preview": preview(task["cases"][0]["input"], PREVIEW_ROWS, PREVIEW_COLUMNS)}


def main():
    request = json.load(sys.stdin)
    command = request.get("command")
    if command == "versions":
        reply = {"python": sys.version.split()[0], "openpyxl": openpyxl.__version__}
        try:
            import pandas

            reply["pandas"] = pandas.__version__
        except ImportError:
            reply["pandas"] = None
    elif command == "preview":
        reply = {"text": preview(request["path"], request.get("rows", PREVIEW_ROWS), request.get("columns", PREVIEW_COLUMNS))}
    elif command == "evaluate":
        reply = {"results": [evaluate(check, request.get("report_cells", 200)) for check in request["checks"]]}
    elif command == "describe":
        reply = {"tasks": [describe(task, request.get("identify", 8)) for task in request["tasks"]]}
    else:
        raise SystemExit("unknown command: %r" % command)
    json.dump(reply, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
