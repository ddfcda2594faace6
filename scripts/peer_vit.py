#!/usr/bin/python3
"""Plain PyTorch peer of the AdaLA engine's ViT, for `adala bench peer`.

Written for Debian's /usr/bin/python3 with python3-torch (1.13): no timm, no numpy needed.
Reads the engine's weights, input, ViT config and settings from a safetensors file (parsed
here with struct + json + torch.frombuffer), runs

  - teacher inference: every block with softmax attention;
  - student inference: every block with ELU+1 linear attention, its own q/k/v/proj
    (blocks.{i}.attn.linear.*): phi(x) = where(x >= 0, x + 1, exp(min(x, 0))),
    out = phi(Q)(phi(K)^T V) / (phi(Q)(phi(K)^T 1) + eps), with V padded by a column of ones
    so the normaliser comes out of the same matmul;
  - one Stage-2 step: MSE between the student's (linear) features and the teacher's (softmax)
    features, backward, AdamW over the parameters the engine names,

and writes the outputs, gradients, updates and median timings to another safetensors file.

usage: peer_vit.py --input peer_input.safetensors --output peer_output.safetensors
"""
import argparse
import copy
import json
import math
import statistics
import struct
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

DTYPES = {"F32": torch.float32, "F64": torch.float64, "F16": torch.float16,
          "BF16": torch.bfloat16, "I64": torch.int64, "I32": torch.int32, "U8": torch.uint8}
NAMES = {v: k for k, v in DTYPES.items()}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {}) or {}
    base = 8 + n
    tensors = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        dtype = DTYPES[info["dtype"]]
        if end > begin:
            t = torch.frombuffer(bytearray(data[base + begin:base + end]), dtype=dtype)
        else:
            t = torch.empty(0, dtype=dtype)
        tensors[name] = t.reshape(info["shape"])
    return tensors, meta


def write_safetensors(path, tensors, meta=None):
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous().cpu()
        raw = t.numpy().tobytes() if t.dtype != torch.bfloat16 else t.view(torch.int16).numpy().tobytes()
        header[name] = {"dtype": NAMES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    if meta:
        header["__metadata__"] = meta
    text = json.dumps(header).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def phi(x):
    return torch.where(x >= 0, x + 1, torch.exp(torch.clamp(x, max=0)))


def split_heads(qkv, heads):
    b, n, c3 = qkv.shape
    return qkv.reshape(b, n, 3, heads, c3 // (3 * heads)).permute(2, 0, 3, 1, 4).unbind(0)


class LinearAttention(nn.Module):
    def __init__(self, dim, heads, qkv_bias, eps):
        super().__init__()
        self.heads, self.eps = heads, eps
        self.qkv = nn.Linear(dim, 3 * dim, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = split_heads(self.qkv(x), self.heads)
        out_dtype = q.dtype
        qf, kf = phi(q.float()), phi(k.float())
        ones = torch.ones(v.shape[:-1] + (1,), dtype=torch.float32, device=v.device)
        v1 = torch.cat([v.float(), ones], dim=-1)           # [V | 1]
        kv = kf.transpose(-2, -1) @ v1                      # (B, H, d, d + 1)
        numden = qf @ kv                                    # (B, H, N, d + 1)
        d = v.shape[-1]
        out = (numden[..., :d] / (numden[..., d:] + self.eps)).to(out_dtype)
        return self.proj(out.transpose(1, 2).flatten(2))


class Attention(nn.Module):
    def __init__(self, dim, heads, qkv_bias, eps):
        super().__init__()
        self.heads = heads
        self.scale = 1.0 / math.sqrt(dim // heads)
        self.qkv = nn.Linear(dim, 3 * dim, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)
        self.linear = LinearAttention(dim, heads, qkv_bias, eps)
        self.mode = "softmax"

    def forward(self, x):
        if self.mode == "linear":
            return self.linear(x)
        q, k, v = split_heads(self.qkv(x), self.heads)
        attn = torch.softmax((q * self.scale) @ k.transpose(-2, -1), dim=-1)
        return self.proj((attn @ v).transpose(1, 2).flatten(2))


class LayerScale(nn.Module):
    def __init__(self, dim, init):
        super().__init__()
        self.gamma = nn.Parameter(torch.full((dim,), init))

    def forward(self, x):
        return x * self.gamma


class Mlp(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        dim = c["embed_dim"]
        self.norm1 = nn.LayerNorm(dim, eps=c["norm_eps"])
        self.attn = Attention(dim, c["num_heads"], c["qkv_bias"], c["linear_attention_eps"])
        self.ls1 = LayerScale(dim, c["layer_scale_init"]) if c["layer_scale"] else nn.Identity()
        self.norm2 = nn.LayerNorm(dim, eps=c["norm_eps"])
        self.mlp = Mlp(dim, int(dim * c["mlp_ratio"]))
        self.ls2 = LayerScale(dim, c["layer_scale_init"]) if c["layer_scale"] else nn.Identity()

    def forward(self, x):
        x = x + self.ls1(self.attn(self.norm1(x)))
        return x + self.ls2(self.mlp(self.norm2(x)))


class PatchEmbed(nn.Module):
    def __init__(self, in_chans, dim, patch):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, dim, patch, stride=patch)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


def interpolate_pos_embed(pos_embed, num_prefix, new_h, new_w):
    patches = pos_embed.shape[1] - num_prefix
    old = int(round(math.sqrt(patches)))
    if old == new_h and old == new_w:
        return pos_embed
    dim = pos_embed.shape[2]
    prefix = pos_embed[:, :num_prefix]
    grid = pos_embed[:, num_prefix:].reshape(1, old, old, dim).permute(0, 3, 1, 2).float()
    grid = F.interpolate(grid, size=(new_h, new_w), mode="bicubic", align_corners=False)
    grid = grid.permute(0, 2, 3, 1).reshape(1, new_h * new_w, dim).to(pos_embed.dtype)
    return torch.cat([prefix, grid], dim=1)


class VisionTransformer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        dim, p = c["embed_dim"], c["patch_size"]
        self.patch_embed = PatchEmbed(c["in_chans"], dim, p)
        self.num_prefix = (1 if c["class_token"] else 0) + c["num_register_tokens"]
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim)) if c["class_token"] else None
        self.reg_token = (nn.Parameter(torch.zeros(1, c["num_register_tokens"], dim))
                          if c["num_register_tokens"] > 0 else None)
        grid = c["img_size"] // p
        pos_len = grid * grid + (0 if c["no_embed_class"] else self.num_prefix)
        self.pos_embed = nn.Parameter(torch.zeros(1, pos_len, dim))
        self.blocks = nn.ModuleList([Block(c) for _ in range(c["depth"])])
        self.norm = nn.LayerNorm(dim, eps=c["norm_eps"])
        self.head = nn.Linear(dim, c["num_classes"]) if c["num_classes"] > 0 else None

    def set_attention_mode(self, mode):
        for b in self.blocks:
            b.attn.mode = mode

    def prepare_tokens(self, images):
        x = self.patch_embed(images)
        b = x.shape[0]
        p = self.c["patch_size"]
        gh, gw = images.shape[2] // p, images.shape[3] // p
        pos_prefix = 0 if self.c["no_embed_class"] else self.num_prefix
        pos = interpolate_pos_embed(self.pos_embed, pos_prefix, gh, gw)
        prefix = []
        if self.cls_token is not None:
            prefix.append(self.cls_token.expand(b, -1, -1))
        if self.reg_token is not None:
            prefix.append(self.reg_token.expand(b, -1, -1))
        if self.c["no_embed_class"]:
            x = x + pos
            return torch.cat(prefix + [x], dim=1) if prefix else x
        if prefix:
            x = torch.cat(prefix + [x], dim=1)
        return x + pos

    def forward_features(self, images):
        x = self.prepare_tokens(images)
        for b in self.blocks:
            x = b(x)
        return self.norm(x)


def timed(fn, warmup, repeats, device):
    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize(device)
    for _ in range(warmup):
        fn()
    sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--input", required=True)
    ap.add_argument("--output", required=True)
    args = ap.parse_args()

    tensors, meta = read_safetensors(args.input)
    config = json.loads(meta["adala.config"])
    settings = json.loads(meta["adala.peer"])
    torch.set_num_threads(int(settings["threads"]))
    warmup, repeats = int(settings["warmup"]), int(settings["repeats"])
    device = torch.device(settings.get("device", "cpu"))
    if device.type == "cuda":
        # float32 everywhere, as the engine runs it: no TF32 in matrix products or convolutions
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    images = tensors.pop("input").to(device)

    teacher = VisionTransformer(config)
    teacher.load_state_dict(tensors, strict=True)
    teacher.to(device)
    student = copy.deepcopy(teacher)
    teacher.set_attention_mode("softmax")
    student.set_attention_mode("linear")
    teacher.eval()
    student.eval()

    out = {}
    with torch.inference_mode():
        def run_teacher():
            out["softmax_features"] = teacher.forward_features(images)

        def run_student():
            out["linear_features"] = student.forward_features(images)

        softmax_ms, softmax_min_ms = timed(run_teacher, warmup, repeats, device)
        linear_ms, linear_min_ms = timed(run_student, warmup, repeats, device)

    for p in teacher.parameters():
        p.requires_grad_(False)
    student.train()
    named = dict(student.named_parameters())
    params = [named[n] for n in settings["trainable"]]
    opt = torch.optim.AdamW(params, lr=float(settings["lr"]),
                            weight_decay=float(settings["weight_decay"]))

    def stage2_loss():
        with torch.no_grad():
            target = teacher.forward_features(images)
        return F.mse_loss(student.forward_features(images), target)

    before = [p.detach().clone() for p in params]
    opt.zero_grad()
    loss = stage2_loss()
    loss.backward()
    out["loss"] = loss.detach().reshape(1)
    out["grads"] = torch.cat([(p.grad if p.grad is not None else torch.zeros_like(p)).reshape(-1)
                              for p in params])
    opt.step()
    out["updates"] = torch.cat([(p.detach() - b).reshape(-1) for p, b in zip(params, before)])
    with torch.inference_mode():
        out["post_step_features"] = student.forward_features(images)

    def train_step():
        opt.zero_grad()
        l = stage2_loss()
        l.backward()
        opt.step()

    train_ms, train_min_ms = timed(train_step, warmup, repeats, device)
    timings = {"softmax_ms": softmax_ms, "linear_ms": linear_ms, "train_ms": train_ms,
               "softmax_min_ms": softmax_min_ms, "linear_min_ms": linear_min_ms,
               "train_min_ms": train_min_ms,
               "torch": torch.__version__, "threads": torch.get_num_threads()}
    timings["device"] = str(device)
    out = {k: v.detach().cpu() for k, v in out.items()}
    write_safetensors(args.output, out, {"peer.timings": json.dumps(timings)})
    print(json.dumps(timings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
