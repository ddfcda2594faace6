#include "engine/kernels/window_linear_attention.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/csrc/autograd/custom_function.h>

#include "engine/kernels/head_parallel.h"
#include "engine/runtime/precision.h"

namespace adala {
namespace {

// Where query i's window lies on the token axis. Keys are visited range by range in one fixed
// order (the prefix first, then the grid rows of the window), so that the backward recomputes
// exactly the forward's scores and finds the same maximum.
struct WindowGrid {
  int64_t n, prefix, height, width, radius;

  explicit WindowGrid(const WindowLinearAttentionOptions& o)
      : n(o.prefix_tokens + o.grid_height * o.grid_width),
        prefix(o.prefix_tokens),
        height(o.grid_height),
        width(o.grid_width),
        radius((o.window - 1) / 2) {}

  // The patch rows [y0, y1] and columns [x0, x1] of patch token i's window.
  struct Box {
    int64_t y0, y1, x0, x1;
    int64_t area() const { return (y1 - y0 + 1) * (x1 - x0 + 1); }
  };
  Box box(int64_t i) const {
    const int64_t p = i - prefix, y = p / width, x = p % width;
    return {std::max<int64_t>(0, y - radius), std::min(height - 1, y + radius),
            std::max<int64_t>(0, x - radius), std::min(width - 1, x + radius)};
  }
  bool covers_grid(const Box& b) const {
    return b.y0 == 0 && b.y1 == height - 1 && b.x0 == 0 && b.x1 == width - 1;
  }
  // Whether query i has linear terms: a patch query whose window leaves some patch out.
  bool has_linear(int64_t i) const { return i >= prefix && !covers_grid(box(i)); }

  // f(begin, end) for each range of the patch keys in patch query i's window, row by row.
  template <typename F>
  void for_each_patch_range(int64_t i, F&& f) const {
    const Box b = box(i);
    for (int64_t y = b.y0; y <= b.y1; ++y) {
      const int64_t row = prefix + y * width;
      f(row + b.x0, row + b.x1 + 1);
    }
  }
  // f(begin, end) for each range of keys in query i's softmax window: every key for a query
  // without linear terms; else the prefix tokens, then the patch ranges.
  template <typename F>
  void for_each_window_range(int64_t i, F&& f) const {
    if (!has_linear(i)) {
      f(int64_t(0), n);
      return;
    }
    if (prefix > 0) f(int64_t(0), prefix);
    for_each_patch_range(i, f);
  }
};

// Eight independent partial sums, so that the compiler vectorises the loop without being
// allowed to reassociate floating-point sums (no -ffast-math here).
template <typename T>
inline T dot(const T* a, const T* b, int64_t n) {
  T acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t c = 0;
  for (; c + 8 <= n; c += 8)
    for (int u = 0; u < 8; ++u) acc[u] += a[c + u] * b[c + u];
  T s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; c < n; ++c) s += a[c] * b[c];
  return s;
}

// y += a x
template <typename T>
inline void axpy(T* y, T a, const T* x, int64_t n) {
#pragma omp simd
  for (int64_t c = 0; c < n; ++c) y[c] += a * x[c];
}

// The scores s_j = scale q_i . k_j over query i's window, in visiting order, into s; returns
// the position of the (first) maximum.
template <typename T>
int64_t window_scores(const WindowGrid& grid, int64_t i, const HeadRows<T>& qh,
                      const HeadRows<T>& kh, int64_t d, T scale, T* s) {
  const T* qi = qh.row(i);
  int64_t count = 0, argmax = 0;
  grid.for_each_window_range(i, [&](int64_t begin, int64_t end) {
    for (int64_t j = begin; j < end; ++j, ++count) {
      s[count] = scale * dot(qi, kh.row(j), d);
      if (s[count] > s[argmax]) argmax = count;
    }
  });
  return argmax;
}

struct Heads {
  at::Tensor q, k, pq, pk, v;  // (B, H, N, x), unit last stride
  int64_t batch_heads, heads, d, f, dv;
};

// out: (B, N, H, dv) token-major; z: (B, H, N) the normalisers; g_lin: (B, H, Np, dv + 1)
// = phi(Q_patches) S, unscaled.
template <typename T>
void forward_heads(const Heads& in, const WindowGrid& grid, T scale, const at::Tensor& gamma,
                   const at::Tensor& g_lin, at::Tensor& out, at::Tensor& z) {
  const int64_t n = grid.n, d = in.d, f = in.f, dv = in.dv;
  const T* gam = gamma.data_ptr<T>();
  T* zd = z.data_ptr<T>();
  for_each_head(in.batch_heads, [&] {
    return [&, s = std::vector<T>(size_t(n)), acc = std::vector<T>(size_t(dv)),
            lin = std::vector<T>(size_t(dv + 1))](int64_t h) mutable {
      const auto qh = head_of<T>(in.q, h), kh = head_of<T>(in.k, h);
      const auto pqh = head_of<T>(in.pq, h), pkh = head_of<T>(in.pk, h);
      const auto vh = head_of<T>(in.v, h), gh = head_of<T>(g_lin, h);
      const auto oh = head_of_token_major<T>(out, h);
      const T gamma_h = gam[h % in.heads];
      for (int64_t i = 0; i < n; ++i) {
        const T m = s[size_t(window_scores(grid, i, qh, kh, d, scale, s.data()))];
        std::fill(acc.begin(), acc.end(), T(0));
        T den = 0;
        int64_t count = 0;
        grid.for_each_window_range(i, [&](int64_t begin, int64_t end) {
          for (int64_t j = begin; j < end; ++j, ++count) {
            const T e = std::exp(s[size_t(count)] - m);
            den += e;
            axpy(acc.data(), e, vh.row(j), dv);
          }
        });
        if (grid.has_linear(i)) {
          // phi(q_i) . (S minus the window's patches): [numerator | normaliser], unscaled.
          const T* gi = gh.row(i - grid.prefix);
          std::copy(gi, gi + dv + 1, lin.begin());
          const T* pqi = pqh.row(i);
          grid.for_each_patch_range(i, [&](int64_t begin, int64_t end) {
            for (int64_t j = begin; j < end; ++j) {
              const T l = dot(pqi, pkh.row(j), f);
              axpy(lin.data(), -l, vh.row(j), dv);
              lin[size_t(dv)] -= l;
            }
          });
          axpy(acc.data(), gamma_h, lin.data(), dv);
          den += gamma_h * lin[size_t(dv)];
        }
        const T inv = T(1) / den;
        T* o = oh.row(i);
        for (int64_t c = 0; c < dv; ++c) o[c] = acc[size_t(c)] * inv;
        zd[h * n + i] = den;
      }
    };
  });
}

// Per query, from the output gradient g, the output and the normaliser z: gd_i = [ghat_i |
// delta_i] with ghat_i = g_i / z_i, delta_i = ghat_i . out_i (every query), and h_i =
// [ghat_i | -delta_i] for the queries with linear terms, zero for the others. gd, h:
// (B, H, N, dv + 1) contiguous.
template <typename T>
void normalised_gradients(const Heads& in, const WindowGrid& grid, const at::Tensor& g,
                          const at::Tensor& out, const at::Tensor& z, at::Tensor& gd,
                          at::Tensor& h_lin) {
  const int64_t n = grid.n, dv = in.dv;
  const T* zd = z.data_ptr<T>();
  for_each_head(in.batch_heads, [&] {
    return [&](int64_t h) {
      const auto gh = head_of<T>(g, h), oh = head_of<T>(out, h);
      const auto gdh = head_of<T>(gd, h), hh = head_of<T>(h_lin, h);
      for (int64_t i = 0; i < n; ++i) {
        const T inv = T(1) / zd[h * n + i];
        const T *gi = gh.row(i), *oi = oh.row(i);
        T* r = gdh.row(i);
        T delta = 0;
        for (int64_t c = 0; c < dv; ++c) {
          r[c] = gi[c] * inv;
          delta += r[c] * oi[c];
        }
        r[dv] = delta;
        T* l = hh.row(i);
        if (grid.has_linear(i)) {
          std::copy(r, r + dv, l);
          l[dv] = -delta;
        } else {
          std::fill(l, l + dv + 1, T(0));
        }
      }
    };
  });
}

// gd from normalised_gradients. dq, dk (zero) and dpq, dpk, dvv (holding the global linear
// terms) get the softmax terms and the window corrections of the linear terms;
// dgamma_window[h] the window part of gamma's gradient.
template <typename T>
void backward_heads(const Heads& in, const WindowGrid& grid, T scale, const at::Tensor& gamma,
                    const at::Tensor& gd, at::Tensor& dq, at::Tensor& dk, at::Tensor& dpq,
                    at::Tensor& dpk, at::Tensor& dvv, std::vector<T>& dgamma_window) {
  const int64_t n = grid.n, d = in.d, f = in.f, dv = in.dv;
  const T* gam = gamma.data_ptr<T>();
  for_each_head(in.batch_heads, [&] {
    return [&, s = std::vector<T>(size_t(n)), c = std::vector<T>(size_t(n))](int64_t h) mutable {
      const auto qh = head_of<T>(in.q, h), kh = head_of<T>(in.k, h);
      const auto pqh = head_of<T>(in.pq, h), pkh = head_of<T>(in.pk, h);
      const auto vh = head_of<T>(in.v, h), gh = head_of<T>(gd, h);
      const auto dqh = head_of<T>(dq, h), dkh = head_of<T>(dk, h);
      const auto dpqh = head_of<T>(dpq, h), dpkh = head_of<T>(dpk, h);
      const auto dvh = head_of<T>(dvv, h);
      const T gamma_h = gam[h % in.heads];
      T dgamma = 0;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t argmax = window_scores(grid, i, qh, kh, d, scale, s.data());
        const T m = s[size_t(argmax)];
        const T* gi = gh.row(i);
        const T delta_i = gi[dv];
        // A weight w_ij moves out_i by (v_j - out_i) / z_i: c_ij = ghat_i . v_j - delta_i.
        // Softmax weights: ds_ij = e_ij c_ij, and m_i takes -sum_j ds_ij to its argmax.
        T ds_sum = 0;
        int64_t count = 0;
        grid.for_each_window_range(i, [&](int64_t begin, int64_t end) {
          for (int64_t j = begin; j < end; ++j, ++count) {
            const T e = std::exp(s[size_t(count)] - m);
            const T cj = dot(gi, vh.row(j), dv) - delta_i;
            c[size_t(count)] = cj;
            s[size_t(count)] = e * cj;
            ds_sum += e * cj;
            axpy(dvh.row(j), e, gi, dv);
          }
        });
        s[size_t(argmax)] -= ds_sum;
        const T* qi = qh.row(i);
        T* dqi = dqh.row(i);
        count = 0;
        grid.for_each_window_range(i, [&](int64_t begin, int64_t end) {
          for (int64_t j = begin; j < end; ++j, ++count) {
            const T w = scale * s[size_t(count)];
            axpy(dqi, w, kh.row(j), d);
            axpy(dkh.row(j), w, qi, d);
          }
        });
        if (!grid.has_linear(i)) continue;
        // The global linear terms counted the window's patches too: take them back out.
        const T* pqi = pqh.row(i);
        T* dpqi = dpqh.row(i);
        count = grid.prefix;  // the patch keys follow the prefix in visiting order
        grid.for_each_patch_range(i, [&](int64_t begin, int64_t end) {
          for (int64_t j = begin; j < end; ++j, ++count) {
            const T l = dot(pqi, pkh.row(j), f);
            const T cj = c[size_t(count)];
            axpy(dpqi, -gamma_h * cj, pkh.row(j), f);
            axpy(dpkh.row(j), -gamma_h * cj, pqi, f);
            axpy(dvh.row(j), -gamma_h * l, gi, dv);
            dgamma -= l * cj;
          }
        });
      }
      dgamma_window[size_t(h)] = dgamma;
    };
  });
}

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct WindowLinearAttentionFunction
    : public torch::autograd::Function<WindowLinearAttentionFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& q, const at::Tensor& k,
                            const at::Tensor& phi_q, const at::Tensor& phi_k, const at::Tensor& v,
                            const at::Tensor& gamma, int64_t prefix, int64_t grid_height,
                            int64_t grid_width, int64_t window, double scale) {
    WindowLinearAttentionOptions o;
    o.prefix_tokens = prefix;
    o.grid_height = grid_height;
    o.grid_width = grid_width;
    o.window = window;
    const WindowGrid grid(o);
    const Heads in = heads_of(q, k, phi_q, phi_k, v);
    const int64_t b = q.size(0), h = q.size(1), np = grid.height * grid.width;
    // S = phi(K_patches)^T [V_patches | 1] per head, then phi(Q_patches) S.
    auto pk_p = in.pk.narrow(2, prefix, np);
    auto s_lin = at::cat(
        {at::matmul(pk_p.transpose(-2, -1), in.v.narrow(2, prefix, np)), pk_p.sum(2).unsqueeze(-1)},
        -1);  // (B, H, F, dv + 1)
    auto g_lin = at::matmul(in.pq.narrow(2, prefix, np), s_lin).contiguous();
    auto out = at::empty({b, grid.n, h, in.dv}, q.options());
    auto z = at::empty({b, h, grid.n}, q.options());
    if (q.scalar_type() == at::kDouble)
      forward_heads<double>(in, grid, scale, gamma, g_lin, out, z);
    else
      forward_heads<float>(in, grid, float(scale), gamma, g_lin, out, z);
    auto result = out.permute({0, 2, 1, 3});
    ctx->save_for_backward({q, k, phi_q, phi_k, v, gamma, result});
    ctx->saved_data["z"] = z;
    ctx->saved_data["s_lin"] = s_lin;
    ctx->saved_data["prefix"] = prefix;
    ctx->saved_data["grid_height"] = grid_height;
    ctx->saved_data["grid_width"] = grid_width;
    ctx->saved_data["window"] = window;
    ctx->saved_data["scale"] = scale;
    return result;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const at::Tensor &q = saved[0], &phi_q = saved[2], &v = saved[4], &gamma = saved[5],
                     &out = saved[6];
    WindowLinearAttentionOptions o;
    o.prefix_tokens = ctx->saved_data["prefix"].toInt();
    o.grid_height = ctx->saved_data["grid_height"].toInt();
    o.grid_width = ctx->saved_data["grid_width"].toInt();
    o.window = ctx->saved_data["window"].toInt();
    const double scale = ctx->saved_data["scale"].toDouble();
    const auto z = ctx->saved_data["z"].toTensor();
    const auto s_lin = ctx->saved_data["s_lin"].toTensor();
    const WindowGrid grid(o);
    const Heads in = heads_of(q, saved[1], phi_q, saved[3], v);
    const int64_t p = grid.prefix, np = grid.height * grid.width, dv = in.dv;
    const auto type = q.scalar_type();
    const Fp32Region fp32;  // whatever runs the backward: its products stay in `type`

    const auto g = with_unit_last_stride(grads[0].to(type));
    const auto options = q.options().dtype(type);
    auto gd = at::empty({q.size(0), q.size(1), grid.n, dv + 1}, options);
    auto h_lin = at::empty_like(gd);
    if (type == at::kDouble)
      normalised_gradients<double>(in, grid, g, out, z, gd, h_lin);
    else
      normalised_gradients<float>(in, grid, g, out, z, gd, h_lin);
    // Every patch key counted (h_lin is zero for the queries without linear terms), with
    // T = phi_q^T h_lin: dphi_q = h_lin (gamma S)^T, dphi_k = gamma [v | 1] T^T,
    // dv = gamma phi_k T_num, dgamma = sum_i phi_q_i . (S h_i) = sum S * T.
    auto gamma4 = gamma.view({1, -1, 1, 1});
    auto t_unscaled = at::matmul(in.pq.transpose(-2, -1), h_lin);  // (B, H, F, dv + 1)
    auto dgamma_global = (s_lin * t_unscaled).sum({0, 2, 3});      // (H)
    auto t_lin = t_unscaled * gamma4;
    auto dpq = at::matmul(h_lin, (s_lin * gamma4).transpose(-2, -1)).contiguous();
    auto dpk = at::matmul(in.v.narrow(2, p, np), t_lin.narrow(-1, 0, dv).transpose(-2, -1))
                   .add_(t_lin.narrow(-1, dv, 1).transpose(-2, -1));
    auto dvv = at::matmul(in.pk.narrow(2, p, np), t_lin.narrow(-1, 0, dv));
    if (p > 0) {  // prefix keys are never linear
      dpk = at::cat({at::zeros({q.size(0), q.size(1), p, in.f}, options), dpk}, 2);
      dvv = at::cat({at::zeros({q.size(0), q.size(1), p, dv}, options), dvv}, 2);
    }
    dpk = dpk.contiguous();
    dvv = dvv.contiguous();
    auto dq = at::zeros(in.q.sizes(), options);
    auto dk = at::zeros(in.k.sizes(), options);
    at::Tensor dgamma;
    if (type == at::kDouble) {
      std::vector<double> window(size_t(in.batch_heads));
      backward_heads<double>(in, grid, scale, gamma, gd, dq, dk, dpq, dpk, dvv, window);
      dgamma = dgamma_global + at::tensor(window).view({-1, in.heads}).sum(0);
    } else {
      std::vector<float> window(size_t(in.batch_heads));
      backward_heads<float>(in, grid, float(scale), gamma, gd, dq, dk, dpq, dpk, dvv, window);
      dgamma = dgamma_global + at::tensor(window).view({-1, in.heads}).sum(0);
    }
    return {dq,           dk,           dpq,          dpk,          dvv,         dgamma,
            at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }

  static Heads heads_of(const at::Tensor& q, const at::Tensor& k, const at::Tensor& phi_q,
                        const at::Tensor& phi_k, const at::Tensor& v) {
    Heads in;
    in.q = with_unit_last_stride(q);
    in.k = with_unit_last_stride(k);
    in.pq = with_unit_last_stride(phi_q);
    in.pk = with_unit_last_stride(phi_k);
    in.v = with_unit_last_stride(v);
    in.heads = q.size(1);
    in.batch_heads = q.size(0) * q.size(1);
    in.d = q.size(3);
    in.f = phi_q.size(3);
    in.dv = v.size(3);
    return in;
  }
};

std::string shape_text(const at::Tensor& t) {
  std::string s = "(";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + ")";
}

void check_inputs(const at::Tensor& q, const at::Tensor& k, const at::Tensor& phi_q,
                  const at::Tensor& phi_k, const at::Tensor& v, const at::Tensor& linear_factor) {
  auto fail = [](const std::string& what) {
    throw std::invalid_argument("window_linear_attention: " + what);
  };
  for (const auto* t : {&q, &k, &phi_q, &phi_k, &v}) {
    if (!t->defined() || t->dim() != 4) fail("q, k, phi_q, phi_k and v must be (B, H, N, x)");
    if (!t->device().is_cpu()) fail("a CPU kernel: inputs on " + t->device().str());
  }
  if (k.sizes() != q.sizes()) fail("k " + shape_text(k) + " must have q's shape " + shape_text(q));
  if (phi_k.sizes() != phi_q.sizes())
    fail("phi_k " + shape_text(phi_k) + " must have phi_q's shape " + shape_text(phi_q));
  for (const auto* t : {&phi_q, &v})
    if (t->size(0) != q.size(0) || t->size(1) != q.size(1) || t->size(2) != q.size(2))
      fail("phi_q and v must share q's (B, H, N): " + shape_text(*t) + " vs " + shape_text(q));
  if (linear_factor.defined() && (linear_factor.dim() != 1 || linear_factor.size(0) != q.size(1)))
    fail("linear_factor must be (heads) = (" + std::to_string(q.size(1)) + "), not " +
         shape_text(linear_factor));
}

}  // namespace

void check_window_linear_attention_options(const WindowLinearAttentionOptions& o, int64_t tokens) {
  auto fail = [](const std::string& what) {
    throw std::invalid_argument("window_linear_attention: " + what);
  };
  if (o.window < 1 || o.window % 2 == 0)
    fail("window must be odd and >= 1, not " + std::to_string(o.window));
  if (o.grid_height < 1 || o.grid_width < 1)
    fail("the grid must have at least one patch, not " + std::to_string(o.grid_height) + " x " +
         std::to_string(o.grid_width));
  if (o.prefix_tokens < 0)
    fail("prefix_tokens must be >= 0, not " + std::to_string(o.prefix_tokens));
  if (tokens != o.prefix_tokens + o.grid_height * o.grid_width)
    fail(std::to_string(tokens) + " tokens, but " + std::to_string(o.prefix_tokens) + " prefix + " +
         std::to_string(o.grid_height) + " x " + std::to_string(o.grid_width) + " patches make " +
         std::to_string(o.prefix_tokens + o.grid_height * o.grid_width));
}

at::Tensor window_linear_attention(const at::Tensor& q, const at::Tensor& k,
                                   const at::Tensor& phi_q, const at::Tensor& phi_k,
                                   const at::Tensor& v, const WindowLinearAttentionOptions& options,
                                   const at::Tensor& linear_factor) {
  check_inputs(q, k, phi_q, phi_k, v, linear_factor);
  check_window_linear_attention_options(options, q.size(2));
  const Fp32Region fp32;
  const auto out_type = q.scalar_type();
  const auto type = out_type == at::kDouble ? at::kDouble : at::kFloat;
  const double scale = options.scale > 0 ? options.scale : 1.0 / std::sqrt(double(q.size(3)));
  auto gamma = linear_factor.defined() ? linear_factor.to(type)
                                       : at::ones({q.size(1)}, q.options().dtype(type));
  auto out = WindowLinearAttentionFunction::apply(
      q.to(type), k.to(type), phi_q.to(type), phi_k.to(type), v.to(type), gamma,
      options.prefix_tokens, options.grid_height, options.grid_width, options.window, scale);
  return out.to(out_type);
}

WindowLinearAttentionCounts window_linear_attention_counts(const WindowLinearAttentionOptions& o) {
  check_window_linear_attention_options(o, o.prefix_tokens + o.grid_height * o.grid_width);
  const WindowGrid grid(o);
  WindowLinearAttentionCounts c;
  c.window_keys = grid.prefix * grid.n;
  for (int64_t i = grid.prefix; i < grid.n; ++i) {
    if (!grid.has_linear(i)) {
      c.window_keys += grid.n;
      continue;
    }
    const int64_t area = grid.box(i).area();
    c.window_keys += grid.prefix + area;
    c.subtracted_keys += area;
    ++c.linear_queries;
  }
  return c;
}

double window_linear_attention_macs(const WindowLinearAttentionOptions& o, int64_t d, int64_t f,
                                    int64_t dv) {
  const auto c = window_linear_attention_counts(o);
  const double patches = double(o.grid_height * o.grid_width);
  return double(c.window_keys) * double(d + dv)         // scores, weighted values
         + 2.0 * patches * double(f) * double(dv + 1)   // S and phi(Q_patches) S
         + double(c.subtracted_keys) * double(f + dv);  // window terms taken out
}

}  // namespace adala
