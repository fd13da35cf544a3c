// Names the JVM (or a bytecode library) makes up per run: lambda and other hidden classes, dynamic
// proxies, reflection accessors, CGLIB and ByteBuddy subclasses. Their numbers and addresses change on
// every restart, so the same code shows up under new function names each time; merging them keeps
// flame graphs of two runs (or two replicas) comparable. The rules (README, "Generated names"):
//
//   Foo$$Lambda$75/0x0000000800c22a28   -> Foo$$Lambda     (also Foo$$Lambda.0x…, Foo$$Lambda/0x…, and
//                                          JDK 8's Foo$$Lambda$28/400136488)
//   LambdaForm$MH/0x0000000800c0c400    -> LambdaForm$MH   (any hidden class: the /0x…, .0x…, +0x… address)
//   $Proxy12                            -> $Proxy
//   jdk.proxy3.$Proxy12                 -> jdk.proxy.$Proxy
//   GeneratedMethodAccessor7            -> GeneratedMethodAccessor (also GeneratedConstructorAccessorN,
//                                          GeneratedSerializationConstructorAccessorN)
//   Foo$$EnhancerByCGLIB$$1a2b3c        -> Foo$$EnhancerByCGLIB (also $$FastClassByCGLIB$$, and Spring's
//                                          $$EnhancerBySpringCGLIB$$ / $$FastClassBySpringCGLIB$$)
//   Foo$ByteBuddy$Ab12Cd34              -> Foo$ByteBuddy
//
// Each rule needs the generated part in full (a number, an address or a token where the generator puts
// one), anywhere in the name (package part included); every other name is left as it is.
#pragma once

#include <string>
#include <string_view>

namespace proflow::jfr {

// Writes `class_name` (dotted or in the JVM's slash form) with every generated part merged into `*out`
// and returns true when something was merged; returns false (and leaves `*out` alone) otherwise.
bool mergeGeneratedNames(std::string_view class_name, std::string* out);

}  // namespace proflow::jfr
