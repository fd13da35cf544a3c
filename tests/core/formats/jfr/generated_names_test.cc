// The generated-name rules both ways: every per-run spelling the JVM, CGLIB and ByteBuddy write is
// merged, and names that only look alike are left as they are.
#include "core/formats/jfr/generated_names.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace proflow::jfr {
namespace {

std::string merged(std::string_view name) {
  std::string out = "untouched";
  return mergeGeneratedNames(name, &out) ? out : "(unchanged)";
}

// Every {as recorded, merged} pair.
void expectMerged(std::initializer_list<std::pair<std::string_view, std::string_view>> cases) {
  for (const auto& [raw, want] : cases) EXPECT_EQ(merged(raw), want) << raw;
}

TEST(GeneratedNames, LambdasAndHiddenClassesLoseNumberAndAddress) {
  expectMerged({
      {"App$$Lambda$75/0x0000000800c22a28", "App$$Lambda"},
      {"com/acme/App$$Lambda$75.0x0000000800c22a28", "com/acme/App$$Lambda"},
      {"com.acme.App$$Lambda/0x00007f3a1c0a1b48", "com.acme.App$$Lambda"},
      {"com.acme.App$$Lambda.0x00007f3a1c0a1b48", "com.acme.App$$Lambda"},
      {"TracingContextKt$$Lambda$28/400136488", "TracingContextKt$$Lambda"},  // JDK 8
      // JDK 17's recorder: hidden class name, address and identity hash.
      {"Workload$$Lambda$92+0x00007f60d4008220/667447085", "Workload$$Lambda"},
      {"kafka/log/LogValidator$$$Lambda$1377.0x000000080156f840", "kafka/log/LogValidator$$$Lambda"},
      {"App$$Lambda$12", "App$$Lambda"},
      {"java/lang/invoke/LambdaForm$MH/0x0000000800c0c400", "java/lang/invoke/LambdaForm$MH"},
      {"java.lang.invoke.LambdaForm$DMH+0x0000000800c0c400", "java.lang.invoke.LambdaForm$DMH"},
  });
}

TEST(GeneratedNames, ProxiesAndAccessorsLoseTheirNumber) {
  expectMerged({
      {"$Proxy12", "$Proxy"},
      {"com.sun.proxy.$Proxy7", "com.sun.proxy.$Proxy"},
      {"jdk.proxy3.$Proxy12", "jdk.proxy.$Proxy"},
      {"jdk/proxy1/$Proxy0", "jdk/proxy/$Proxy"},
      {"jdk.internal.reflect.GeneratedMethodAccessor7", "jdk.internal.reflect.GeneratedMethodAccessor"},
      {"sun/reflect/GeneratedConstructorAccessor31", "sun/reflect/GeneratedConstructorAccessor"},
      {"jdk.internal.reflect.GeneratedSerializationConstructorAccessor9",
       "jdk.internal.reflect.GeneratedSerializationConstructorAccessor"},
  });
}

TEST(GeneratedNames, BytecodeLibrariesLoseHashAndToken) {
  expectMerged({
      {"com.acme.Service$$EnhancerByCGLIB$$1a2b3c4d", "com.acme.Service$$EnhancerByCGLIB"},
      {"com.acme.Service$$FastClassByCGLIB$$9f8e7d", "com.acme.Service$$FastClassByCGLIB"},
      {"com.acme.Service$$EnhancerBySpringCGLIB$$5e3a7f1c", "com.acme.Service$$EnhancerBySpringCGLIB"},
      {"com.acme.Service$ByteBuddy$Ab12Cd34", "com.acme.Service$ByteBuddy"},
      // Nested: a CGLIB subclass of a proxy, and a generated class inside a hidden class's package part.
      {"$Proxy3$$EnhancerByCGLIB$$abc", "$Proxy$$EnhancerByCGLIB"},
      {"jdk.proxy2.$Proxy5$ByteBuddy$xY9", "jdk.proxy.$Proxy$ByteBuddy"},
      {"App$$Lambda$3/0x0000000800c01000$Inner", "App$$Lambda$Inner"},
  });
}

TEST(GeneratedNames, OrdinaryNamesAreNeverTouched) {
  for (std::string_view name :
       {"java.lang.Thread", "com/acme/App", "com.acme.App$Inner", "com.acme.App$1", "App$$Lambda",
        "App$$LambdaFactory$3", "com.acme.Foo$Proxy", "com.acme.Foo$Proxy12", "$ProxyFactory", "$Proxy",
        "GeneratedMethodAccessor", "com.acme.GeneratedMethodAccessorFactory", "MyGeneratedMethodAccessor7",
        "GeneratedMethodAccessor7x", "jdk.proxy.Foo", "jdk.proxyfoo.Bar", "myjdk.proxy3.Foo", "jdk.proxy3",
        "Service$$EnhancerByCGLIB$$", "Service$$EnhancerByCGLIB$$xyz", "Service$ByteBuddy$", "Foo.0x", "Foo/0xg1",
        "Foo.0x12ab_c", "com.acme.v0x1.Foo", "Foo/12a", "com.acme.v1.Foo", "lambda$main$0", "", "$", "$$", "0x12"}) {
    EXPECT_EQ(merged(name), "(unchanged)") << name;
  }
}

}  // namespace
}  // namespace proflow::jfr
