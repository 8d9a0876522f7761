#!/usr/bin/env bash
# Register caps and LSR, one call (session 2026-12-01).
A=/tmp/res2; rm -rf $A; mkdir -p $A
reg() { # TAG TIMEOUT ONLY CAPS WIDTHS EXTRA
  OUT=$A/$1 REGISTER_TAG=$1 REGISTER_ONLY=$3 REGISTER_CAPS=$4 REGISTER_WIDTHS=$5 REGISTER_EXTRA=$6 \
    timeout $2 bash scripts/gpu/run.sh registers > $A/$1.log 2>&1
  cat $A/$1/registers-$1.txt
}
reg attention 100 attention 0,88,80,72 2048
reg f32 100 softmax-f32 0,80,64 2048,4096,8192,16384
reg chains 100 padded,log_softmax,bias 0,80,64 4096
reg f16 40 softmax-f16 0,64 8192,16384
reg lsr 100 softmax-f32,softmax-bf16,attention,padded,log_softmax,bias 0 128,1000,4096,16384,65536 ""
reg nolsr 100 softmax-f32,softmax-bf16,attention,padded,log_softmax,bias 0 128,1000,4096,16384,65536 --disable-lsr
tar -C /tmp -cJf $OUT/res2.tar.xz res2
