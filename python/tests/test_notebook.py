"""The notebook `notebooks/drift-proof.ipynb` runs headless from top to bottom: every cell
without an error (its cells assert their numbers against hand computations) and every plot drawn."""

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "drift-proof.ipynb"


def test_the_drift_proof_notebook_runs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    ).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 3
    text = "".join(o.get("text", "") for o in outputs)
    assert 'verdict="refuted"' in text and 'verdict="holds"' in text
    assert "best growth fit: {'coefficient'" in text and "'model': 'constant'" in text
