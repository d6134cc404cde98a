"""A GGUF checkpoint as a Hugging Face model folder (safetensors, tokenizer, chat template), written once.

vLLM 0.32 no longer loads GGUF; transformers dequantizes it. The folder is written beside, under a temporary
name, and renamed into place with a manifest of checksums (the GGUF's and every written file's), so a second run
checks instead of converting and an interrupted run leaves no half-written folder.

A GGUF carries no sampling defaults: `--sampling KEY=VALUE` writes the model's published ones (its
`generation_config.json`: a repetition penalty, top_k...) into the folder, where vLLM and transformers read them.

usage: gguf_to_folder.py MODEL.gguf FOLDER [--sha256 HEX] [--dtype bfloat16] [--sampling repetition_penalty=1.1 ...]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from junitbot.atomic import write_atomically
from junitbot.validation.build.tool_manifest import file_sha256

MANIFEST = "junitbot-manifest.json"
FORMAT = 2  # raised when the conversion changes, so a folder written by an older one is written again


def written_weights(folder: Path, source_sha: str) -> dict[str, object] | None:
    """The folder's manifest when it was written from this GGUF and no file of it changed since, else None."""
    try:
        manifest: dict[str, object] = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    if manifest.get("source_sha256") != source_sha or manifest.get("format") != FORMAT:
        return None
    files = manifest.get("files")
    if not isinstance(files, dict) or not files or not all(
            (folder / name).is_file() and file_sha256(folder / name) == sha for name, sha in files.items()):
        return None
    return manifest


def write_sampling(folder: Path, manifest: dict[str, object], sampling: dict[str, float]) -> None:
    """Only the sampling defaults changed: rewrite `generation_config.json` and the manifest, not the weights."""
    from transformers import AutoConfig

    generation = generation_config(AutoConfig.from_pretrained(folder), sampling)
    write_atomically(folder / "generation_config.json", generation.to_json_string())
    files = dict(manifest["files"])  # type: ignore[call-overload]
    files["generation_config.json"] = file_sha256(folder / "generation_config.json")
    write_atomically(folder / MANIFEST, json.dumps({**manifest, "sampling": sampling, "files": files}, indent=2) + "\n")


def convert(gguf: Path, folder: Path, dtype: str, source_sha: str, sampling: dict[str, float]) -> int:
    """Write the folder under a temporary name with its manifest, then rename it into place; the files written."""
    import torch
    from safetensors.torch import save_file
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer
    from transformers.modeling_gguf_pytorch_utils import load_gguf_checkpoint

    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    torch_dtype = getattr(torch, dtype)
    config = AutoConfig.from_pretrained(gguf.parent, gguf_file=gguf.name)
    config.dtype = torch_dtype
    # A model on the meta device names the parameters; transformers' own GGUF loading keeps them quantized and
    # refuses to save them, so the tensors are dequantized here and written as they are.
    with torch.device("meta"):
        skeleton = AutoModelForCausalLM.from_config(config)
    tensors = load_gguf_checkpoint(str(gguf), return_tensors=True, model_to_load=skeleton,
                                   torch_dtype=torch_dtype)["tensors"]
    expected = {name for name, _ in skeleton.named_parameters()} - _tied(config)
    if missing := sorted(expected - set(tensors)):
        raise SystemExit(f"gguf_to_folder: {len(missing)} parameters missing from the GGUF, e.g. {missing[:3]}")
    save_file({name: tensors[name].to(torch_dtype).contiguous() for name in sorted(expected)},
              str(partial / "model.safetensors"), metadata={"format": "pt"})
    config.architectures = [type(skeleton).__name__]  # vLLM picks its model class by this name
    config.save_pretrained(partial)
    generation_config(config, sampling).save_pretrained(partial)
    AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name).save_pretrained(partial)
    files = {p.name: file_sha256(p) for p in sorted(partial.iterdir()) if p.is_file()}
    manifest = {"format": FORMAT, "source": str(gguf), "source_sha256": source_sha, "dtype": dtype,
                "sampling": sampling, "files": files}
    (partial / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return len(files)


def generation_config(config: object, sampling: dict[str, float]) -> object:
    """The model config's generation config with `sampling` set, every key (`update` would drop those it does not
    know, a frequency penalty among them); a model published with sampling defaults samples (transformers refuses a
    top_k without it)."""
    from transformers import GenerationConfig

    generation = GenerationConfig.from_model_config(config)
    for key, value in {**({"do_sample": True} if sampling else {}), **sampling}.items():
        setattr(generation, key, value)
    return generation


def _tied(config: object) -> set[str]:
    """The output layer when it shares the input embedding's weights (not stored twice)."""
    return {"lm_head.weight"} if getattr(config, "tie_word_embeddings", False) else set()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gguf", type=Path)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--sha256", help="the GGUF's expected checksum")
    parser.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float16", "float32"))
    parser.add_argument("--sampling", action="append", default=[], metavar="KEY=VALUE",
                        help="a sampling default of the model for its generation_config.json (repeatable)")
    args = parser.parse_args(argv)
    try:  # top_k=20 stays a whole number, temperature=0.7 a fraction
        sampling = {key: int(value) if value.lstrip("-").isdigit() else float(value)
                    for key, _, value in (item.partition("=") for item in args.sampling)}
    except ValueError:
        parser.error(f"--sampling takes KEY=NUMBER, got {args.sampling}")
    source_sha = file_sha256(args.gguf)
    if args.sha256 and source_sha != args.sha256:
        print(f"gguf_to_folder: {args.gguf} has sha256 {source_sha}, expected {args.sha256}", file=sys.stderr)
        return 1
    manifest = written_weights(args.folder, source_sha)
    if manifest is not None and manifest.get("sampling", {}) == sampling:
        print(f"gguf_to_folder: {args.folder} is current", file=sys.stderr)
        return 0
    if manifest is not None:
        write_sampling(args.folder, manifest, sampling)
        print(f"gguf_to_folder: {args.folder}: sampling defaults {sampling}", file=sys.stderr)
        return 0
    started = time.monotonic()
    written = convert(args.gguf, args.folder, args.dtype, source_sha, sampling)
    print(f"gguf_to_folder: wrote {args.folder} ({written} files) in {time.monotonic() - started:.0f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
