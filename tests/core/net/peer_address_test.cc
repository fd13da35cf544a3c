// The client a peer belongs to, as HTTP and gRPC spell peers.
#include "core/net/peer_address.h"

#include <gtest/gtest.h>

namespace proflow::net {
namespace {

TEST(ClientGroup, DropsThePortAndKeepsAnIpv6ClientsWhole64) {
  EXPECT_EQ(clientGroup("127.0.0.2:41234"), "127.0.0.2");
  EXPECT_EQ(clientGroup("ipv4:10.1.2.3:50051"), "10.1.2.3");
  EXPECT_EQ(clientGroup("[2001:db8:1:2:aaaa::1]:443"), "2001:db8:1:2::/64");
  EXPECT_EQ(clientGroup("ipv6:%5B2001:db8:1:2:bbbb::9%5D:443"), "2001:db8:1:2::/64");
  EXPECT_EQ(clientGroup("ipv6:[::ffff:192.0.2.7]:80"), "192.0.2.7");
  EXPECT_EQ(clientGroup("unix:/run/proflow.sock"), "unix:/run/proflow.sock");
}

}  // namespace
}  // namespace proflow::net
