// container.id from cgroup paths in every runtime's format, and the mountinfo fallback.
#include <gtest/gtest.h>

#include "processors/resource_detection/container_detector.h"
#include "tests/processors/resource_detection/fake_proc.h"

namespace proflow::processors::resourcedetection {
namespace {

const std::string kId = "3f4a5b6c7d8e9f00112233445566778899aabbccddeeff00112233445566aabb";
const std::string kOther = "0000000000000000000000000000000000000000000000000000000000000001";

TEST(ContainerId, CgroupV1Docker) {
  EXPECT_EQ(containerIdFromCgroup("12:pids:/docker/" + kId + "\n11:memory:/docker/" + kId +
                                  "\n1:name=systemd:/docker/" + kId + "\n0::/\n"),
            kId);
}

TEST(ContainerId, CgroupV2SystemdScopes) {
  EXPECT_EQ(containerIdFromCgroup("0::/system.slice/docker-" + kId + ".scope\n"), kId);
  EXPECT_EQ(containerIdFromCgroup("0::/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" + kId +
                                  ".scope/container\n"),
            kId);
  // systemd inside the container adds a scope under the container's.
  EXPECT_EQ(containerIdFromCgroup("0::/system.slice/docker-" + kId + ".scope/init.scope\n"), kId);
}

TEST(ContainerId, KubernetesContainerdAndCrio) {
  EXPECT_EQ(containerIdFromCgroup("0::/kubepods.slice/kubepods-burstable.slice/"
                                  "kubepods-burstable-pod0e5f2c1a_1111_2222_3333_444455556666.slice/cri-containerd-" +
                                  kId + ".scope\n"),
            kId);
  EXPECT_EQ(containerIdFromCgroup("0::/kubepods.slice/kubepods-besteffort.slice/"
                                  "kubepods-besteffort-pod0e5f2c1a_1111_2222_3333_444455556666.slice/crio-" +
                                  kId + ".scope\n"),
            kId);
  // cgroupfs driver, cgroup v1: the id is the last component under the pod.
  EXPECT_EQ(containerIdFromCgroup("11:cpu,cpuacct:/kubepods/besteffort/pod0e5f2c1a-1111-2222-3333-444455556666/" +
                                  kId + "\n"),
            kId);
  EXPECT_EQ(containerIdFromCgroup("4:memory:/kubepods/burstable/pod1/crio-" + kId + "\n"), kId);
}

TEST(ContainerId, NotContainers) {
  // cri-o's monitor process lives in its own conmon scope: not the container.
  EXPECT_EQ(containerIdFromCgroup("0::/machine.slice/crio-conmon-" + kId + ".scope\n"), "");
  EXPECT_EQ(containerIdFromCgroup("0::/user.slice/user-1000.slice/session-3.scope\n"), "");
  EXPECT_EQ(containerIdFromCgroup("0::/\n"), "");
  EXPECT_EQ(containerIdFromCgroup("0::/system.slice/docker-" + kId.substr(1) + ".scope\n"), "");  // 63 hex
  EXPECT_EQ(containerIdFromCgroup("0::/docker/" + std::string(64, 'G') + "\n"), "");
  EXPECT_EQ(containerIdFromCgroup(""), "");
}

TEST(ContainerId, Mountinfo) {
  const std::string docker = "612 588 8:1 /var/lib/docker/containers/" + kId +
                             "/hostname /etc/hostname rw,relatime - ext4 /dev/sda1 rw\n";
  const std::string podman = "700 650 0:44 /containers/storage/overlay-containers/" + kId +
                             "/userdata/hostname /etc/hostname rw - tmpfs tmpfs rw\n";
  const std::string rootfs = "590 500 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/x\n";
  EXPECT_EQ(containerIdFromMountinfo(rootfs + docker), kId);
  EXPECT_EQ(containerIdFromMountinfo(rootfs + podman), kId);
  // On the host, docker's shm mount lives under containers/<id>/ as a mount point, not as a
  // mount root: the host is not in that container.
  EXPECT_EQ(containerIdFromMountinfo("80 25 0:60 / /var/lib/docker/containers/" + kId +
                                     "/mounts/shm rw - tmpfs shm rw\n"),
            "");
  EXPECT_EQ(containerIdFromMountinfo(rootfs), "");
}

TEST(ContainerId, FakeProcTreeUsesCgroupThenMountinfo) {
  testing::FakeProc proc;
  const std::string mounts = "612 588 8:1 /docker/containers/" + kId + "/resolv.conf /etc/resolv.conf rw - ext4 x rw\n";
  proc.add("10", {.cgroup = "0::/system.slice/docker-" + kOther + ".scope\n", .mountinfo = mounts});
  proc.add("11", {.cgroup = "0::/\n", .mountinfo = mounts});  // private cgroup namespace
  proc.add("12", {.cgroup = "0::/user.slice/session-1.scope\n", .mountinfo = mounts});  // a host process
  proc.add("self", {.cgroup = "0::/kubepods.slice/cri-containerd-" + kId + ".scope\n"});
  EXPECT_EQ(detectContainerId(proc.root(), "10"), kOther);
  EXPECT_EQ(detectContainerId(proc.root(), "11"), kId);
  EXPECT_EQ(detectContainerId(proc.root(), "12"), "");
  EXPECT_EQ(detectContainerId(proc.root(), "self"), kId);
  EXPECT_EQ(detectContainerId(proc.root(), "13"), "");  // gone
}

}  // namespace
}  // namespace proflow::processors::resourcedetection
