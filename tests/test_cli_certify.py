"""`check --certify DIR` and `verify-certificate`: certificates written by the command and checked by it."""

from __future__ import annotations

from cpmodels.cli import main

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."  # needs a real proof


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_check_certify_writes_certificates_that_verify(capsys, tmp_path):
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(f"{INKALA}\n{'.' * 16}\n")
    code, out, _ = run(capsys, "check", puzzles, "--certify", tmp_path / "certs")
    assert code == 3 and "certificate: " in out and "multiple" in out
    made = sorted(p.name for p in (tmp_path / "certs").iterdir())
    assert made == ["two.txt_1.cnf", "two.txt_1.drat", "two.txt_1.puzzle", "two.txt_1.sol"]  # not the multiple one
    code, out, _ = run(capsys, "verify-certificate", tmp_path / "certs" / "two.txt_1.drat")
    assert (code, out) == (0, "two.txt_1: verified\n")


def test_verify_certificate_rejects_a_tampered_one(capsys, tmp_path):
    run(capsys, "check", INKALA, "--certify", tmp_path)
    base = tmp_path / "argument_1"
    proof = base.with_suffix(".drat")
    lines = proof.read_text().splitlines()
    proof.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    code, out, _ = run(capsys, "verify-certificate", base)
    assert code == 7 and out.startswith("argument_1: rejected: ") and "proof" in out
    solution = base.with_suffix(".sol")
    values = solution.read_text().split()
    values[0], values[1] = values[1], values[0]
    solution.write_text(" ".join(values) + "\n")
    code, out, _ = run(capsys, "verify-certificate", base)
    assert code == 7 and "solution" in out
