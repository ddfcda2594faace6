#!/usr/bin/python3
"""Class logits of images through a softmax ViT checkpoint, computed without the engine: PIL
decodes and resizes (timm's eval transform through torchvision: Resize(floor(res / crop_pct)) of
the shorter side, or of both sides for squash, CenterCrop(res), ToTensor, Normalize), and the
plain-PyTorch ViT of scripts/peer_vit.py runs the model. For checking `adala predict --logits`.

Needs Debian's python3-torch, python3-torchvision and python3-pil (for /usr/bin/python3).

usage: predict_peer.py WEIGHTS CONFIG_JSON IMAGE... --res R --crop-pct P --crop-mode center|squash
       --interpolation bilinear|bicubic --mean a,b,c --std a,b,c [--output logits.safetensors]
CONFIG_JSON: the ViTConfig as `adala export` records it ("adala.config"), or a file of it.
"""
import argparse
import json
import math
import os
import sys

import torch
from PIL import Image
from torchvision import transforms

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_vit  # noqa: E402

DEFAULTS = {"num_register_tokens": 0, "no_embed_class": False, "layer_scale": False,
            "layer_scale_init": 1e-5, "norm_eps": 1e-6, "linear_attention_eps": 1e-6,
            "qkv_bias": True, "class_token": True, "mlp_ratio": 4.0}


def numbers(text):
    return [float(v) for v in text.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("weights")
    ap.add_argument("config")
    ap.add_argument("images", nargs="+")
    ap.add_argument("--res", type=int, required=True)
    ap.add_argument("--crop-pct", type=float, default=0.875)
    ap.add_argument("--crop-mode", choices=["center", "squash"], default="center")
    ap.add_argument("--interpolation", choices=["bilinear", "bicubic"], default="bicubic")
    ap.add_argument("--mean", type=numbers, required=True)
    ap.add_argument("--std", type=numbers, required=True)
    ap.add_argument("--output")
    args = ap.parse_args()

    tensors, meta = peer_vit.read_safetensors(args.weights)
    text = open(args.config).read() if os.path.exists(args.config) else args.config
    config = dict(DEFAULTS, **json.loads(text))
    model = peer_vit.VisionTransformer(config)
    state = model.state_dict()
    # The linear branch is not in a softmax file: keep the module's own (it never runs here).
    missing = [k for k in state if k not in tensors and ".attn.linear." not in k]
    if missing:
        sys.exit("missing tensors: " + ", ".join(missing[:5]))
    state.update({k: v for k, v in tensors.items() if k in state})
    model.load_state_dict(state, strict=True)
    model.set_attention_mode("softmax")
    model.eval()

    mode = {"bilinear": transforms.InterpolationMode.BILINEAR,
            "bicubic": transforms.InterpolationMode.BICUBIC}[args.interpolation]
    # timm's eval geometry: squash scales each side to res / crop_pct (aspect not kept), and
    # either way the centre crop follows.
    size = math.floor(args.res / args.crop_pct)
    geometry = [transforms.Resize(size if args.crop_mode == "center" else (size, size),
                                  interpolation=mode),
                transforms.CenterCrop(args.res)]
    tf = transforms.Compose(geometry + [transforms.ToTensor(),
                                        transforms.Normalize(args.mean, args.std)])
    colour = "RGB" if config["in_chans"] == 3 else "L"
    images = torch.stack([tf(Image.open(p).convert(colour)) for p in args.images])
    with torch.inference_mode():
        features = model.forward_features(images)
        logits = model.head(features[:, 0] if config["class_token"] else
                            features[:, model.num_prefix:].mean(1))
    for p, row in zip(args.images, logits):
        print(p, " ".join(f"{v:.6f}" for v in row.tolist()))
    if args.output:
        peer_vit.write_safetensors(args.output, {"logits": logits.contiguous()})


if __name__ == "__main__":
    main()
