#pragma once
// Local-window softmax + linear attention: the LoLCATS hybrid, in 2D on the patch grid.
//
// Tokens are the prefix tokens (class, registers: `prefix_tokens` of them) followed by the
// patches row by row on a grid_height x grid_width grid. Each query i has a window W(i):
//   patch query at (y, x):  the prefix tokens and the patches (y', x') with |y' - y| <= r and
//                           |x' - x| <= r, r = (window - 1) / 2, clipped at the grid's edges
//                           (no padding: a corner patch's window holds fewer patches);
//   prefix query:           every token. A prefix token has no place on the grid, and the
//                           window relation stays symmetric (j in W(i) <=> i in W(j)): prefix
//                           tokens are in every window, so every token is in theirs. Their rows
//                           are exact softmax attention, at P x N x d for P prefix tokens (less
//                           than the patches' windows cost for P <= window^2).
// Keys in the window get softmax weights, all the others linear weights, under one normaliser:
//   out_i = (sum_{j in W(i)} e_ij v_j + gamma_h sum_{j not in W(i)} (phi(q_i) . phi(k_j)) v_j)
//         / (sum_{j in W(i)} e_ij     + gamma_h sum_{j not in W(i)}  phi(q_i) . phi(k_j)),
//   e_ij = exp(s_ij - m_i),  s_ij = scale q_i . k_j,  m_i = max_{j in W(i)} s_ij.
// As in the LoLCATS reference form, the window's weights are taken after subtracting the
// window's own maximum and the linear weights are not rescaled, so m_i is part of the function
// (it sets how much the linear part counts against the window) and the backward differentiates
// through it (to the key attaining the maximum). The normaliser is at least 1 (the maximum's
// own weight, exp(0)), so no eps is needed for phi >= 0 and gamma >= 0.
// gamma_h (`linear_factor`, one per head, default 1) is LoLCATS' mixing: its window factor f
// (sigmoid of a parameter) on the softmax weights and 1 - f on the linear weights give the
// same output as gamma = (1 - f) / f on the linear weights alone, since the normaliser takes
// the same factors; a caller keeps whatever parametrisation it likes and passes gamma.
// When a query's window covers the whole grid (window >= 2 * grid side - 1 for every query),
// its row is exact softmax attention and its linear part is exactly zero (never computed as a
// difference).
//
// Cost per (batch, head), N tokens, window^2 = w2: O(N w2 (d + F + dv) + P N (d + dv)
// + N F dv), memory O(N (d + F + dv)); nothing N x N. The linear part over "all others" is
// phi(q_i) S minus the window's terms, S = sum over all patches of phi(k_j) [v_j | 1]^T
// (F x (dv + 1)). CPU only: a torch::autograd::Function with its own backward (window scores
// recomputed, the normaliser saved), (batch, head) pairs spread over the intra-op threads.
// Arithmetic in float64 for float64 q, else float32 (the result converted back to q's type);
// autocast is off inside (precision.h's Fp32Region).
#include <ATen/ATen.h>

namespace adala {

struct WindowLinearAttentionOptions {
  int64_t grid_height = 0, grid_width = 0;  // the patch grid: N = prefix_tokens + h x w
  int64_t prefix_tokens = 0;                // class and register tokens, before the patches
  int64_t window = 3;                       // the k of the k x k window: odd, >= 1
  double scale = 0;                         // softmax scale; <= 0: 1 / sqrt(head_dim)
};

// Throws std::invalid_argument naming what is wrong (even or non-positive window, empty grid,
// negative prefix, tokens != prefix + grid).
void check_window_linear_attention_options(const WindowLinearAttentionOptions& options,
                                           int64_t tokens);

// q, k: (B, H, N, d), the raw projections for the softmax part; phi_q, phi_k: (B, H, N, F),
// the feature maps already applied (elu1, hedgehog, ...: gradients flow back through them);
// v: (B, H, N, dv); linear_factor: undefined (gamma = 1) or (H) gamma >= 0. Result
// (B, H, N, dv), a view of a (B, N, H, dv) tensor (merging the heads needs no copy), in q's type.
// Differentiable in q, k, phi_q, phi_k, v and linear_factor.
at::Tensor window_linear_attention(const at::Tensor& q, const at::Tensor& k,
                                   const at::Tensor& phi_q, const at::Tensor& phi_k,
                                   const at::Tensor& v, const WindowLinearAttentionOptions& options,
                                   const at::Tensor& linear_factor = {});

// Keys in the softmax window summed over all queries (the sum of |W(i)|), and over the queries
// with a linear part the patches in their windows (the terms subtracted from phi(q_i) S).
struct WindowLinearAttentionCounts {
  int64_t window_keys = 0;
  int64_t subtracted_keys = 0;
  int64_t linear_queries = 0;  // queries with a linear part
};
WindowLinearAttentionCounts window_linear_attention_counts(
    const WindowLinearAttentionOptions& options);

// Multiply-adds of one forward per (batch, head): scores and weighted values over the windows,
// S and phi(Q_patches) S (every patch query, window covering the grid or not), and the
// subtracted window terms.
double window_linear_attention_macs(const WindowLinearAttentionOptions& options, int64_t head_dim,
                                    int64_t feature_dim, int64_t value_dim);

}  // namespace adala
