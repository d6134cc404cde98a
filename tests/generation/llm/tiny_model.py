"""A tiny randomly initialised causal LM with a BPE tokenizer trained on the example's Java sources.

Built in seconds on CPU: hidden size 32, 2 layers, a 600-token vocabulary, a ChatML chat template. What it
writes is garbage, which is the point: garbage must flow through the pipeline without crashing it.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import EXAMPLE

CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIAL = ["<unk>", "<pad>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"]


def build_tiny_model(folder: Path, *, seed: int = 0, max_positions: int = 4096) -> Path:
    """Train the tokenizer, initialise the model and `save_pretrained` both into `folder`."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # untyped upstream; bars are noise here

    sources = sorted(str(p) for p in (EXAMPLE / "src").rglob("*.java"))
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train(sources, trainers.BpeTrainer(vocab_size=600, special_tokens=SPECIAL, show_progress=False,
                                           initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]  # untyped upstream
        tokenizer_object=bpe, unk_token="<unk>", pad_token="<pad>", bos_token="<s>", eos_token="<|im_end|>")
    tokenizer.chat_template = CHAT_TEMPLATE
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=max_positions,
                         pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id,
                         eos_token_id=tokenizer.eos_token_id)
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(folder)
    model.save_pretrained(folder)
    return folder
