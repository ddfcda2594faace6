#pragma once
// One visitor from several lambdas, for std::visit: Overloaded{[](int) {}, [](double) {}}.

namespace adala {

template <class... Lambdas>
struct Overloaded : Lambdas... {
  using Lambdas::operator()...;
};
template <class... Lambdas>
Overloaded(Lambdas...) -> Overloaded<Lambdas...>;

}  // namespace adala
