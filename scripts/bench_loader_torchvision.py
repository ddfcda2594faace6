#!/usr/bin/env python3
"""torchvision's ImageFolder + DataLoader on the files `adala bench loader` reads, with the same
work per image: decode (PIL), RandomResizedCrop(res), RandomHorizontalFlip, ToTensor, Normalize
(ImageNet mean/std), batched. One JSON line per worker count, as `adala bench loader --json`."""
import argparse
import json
import time

import torch
from torch.utils.data import DataLoader, Subset
from torchvision import datasets, transforms


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("folder")
    p.add_argument("--res", type=int, default=224)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--batches", type=int, default=20)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", default="1,2", help="DataLoader worker counts")
    a = p.parse_args()
    torch.set_num_threads(1)
    tf = transforms.Compose([
        transforms.RandomResizedCrop(a.res),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
    ])
    data = datasets.ImageFolder(a.folder, transform=tf)
    if a.limit:
        data = Subset(data, range(min(a.limit, len(data))))
    total = a.warmup + a.batches
    if len(data) < a.batch_size * total:
        raise SystemExit(f"{len(data)} images: fewer than {total} batches of {a.batch_size}")
    for workers in (int(t) for t in a.threads.split(",")):
        g = torch.Generator()
        g.manual_seed(a.seed)
        loader = DataLoader(data, batch_size=a.batch_size, shuffle=True, generator=g,
                            num_workers=workers, drop_last=True, persistent_workers=False)
        images, started = 0, time.perf_counter()
        for step, (x, _) in enumerate(loader):
            if step == a.warmup:
                started = time.perf_counter()
            if step >= a.warmup:
                images += x.shape[0]
            if step + 1 == total:
                break
        seconds = time.perf_counter() - started
        del loader
        print(json.dumps({"loader": "torchvision", "threads": workers, "images": images,
                          "seconds": round(seconds, 6),
                          "images_per_second": round(images / seconds, 3)}), flush=True)


if __name__ == "__main__":
    main()
