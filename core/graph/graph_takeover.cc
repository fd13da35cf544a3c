// PipelineGraph::takeOver: how a reload moves traffic from the running graph to the next one (the
// steps are listed in pipeline_graph.h).
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <future>

#include "core/graph/pipeline_graph.h"

namespace proflow::graph {
namespace {

// Servers close their listening sockets on an I/O thread after shutdown() returned: one task per I/O
// thread, each run before the next is posted, lets the closes queued before them happen before a
// new receiver binds the same endpoint.
void letIoCatchUp(Runtime& runtime, unsigned io_threads) {
  const unsigned n = std::max(1u, io_threads);
  for (unsigned i = 0; i < n; ++i) {
    auto done = std::make_shared<std::promise<void>>();
    auto ran = done->get_future();
    boost::asio::post(runtime.io(), [done] { done->set_value(); });
    ran.wait_for(std::chrono::seconds(1));
  }
}

std::string describe(const PipelineGraph::Node& n) { return n.key().str(); }

Status startError(const PipelineGraph::Node& n, const Status& s) {
  return Status(s.code(), "starting " + describe(n) + ": " + s.message());
}

}  // namespace

Status PipelineGraph::takeOver(PipelineGraph& running, Host& host, Deadline deadline, bool* switched,
                               unsigned io_threads) {
  *switched = false;
  auto fate = [this](const Node& old) {
    const Node* now = find(old.key());
    return now ? now->change : NodeChange::kRemoved;
  };

  // 1. New instances other than receivers and exporter replacements, downstream first. Nothing
  // sends to them before step 3, so a failure here leaves the running graph as it was.
  std::vector<Node*> started;
  for (auto& n : nodes_) {
    if (n.change == NodeChange::kKept || n.kind == ComponentKind::kReceiver) continue;
    if (n.kind == ComponentKind::kExporter && n.change == NodeChange::kChanged) continue;
    Status s = n.component->start(host);
    if (!s.isOk()) {
      const auto now = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      for (auto it = started.rbegin(); it != started.rend(); ++it) (*it)->component->shutdown(now);
      shut_down_ = true;  // nothing of this graph runs
      return startError(n, s);
    }
    started.push_back(&n);
  }
  *switched = true;
  std::string errors;
  auto note = [&errors](const Status& s) { errors += (errors.empty() ? "" : "; ") + s.message(); };

  // 2. Changed exporters, in place behind their edge: calls wait while the old instance drains.
  for (auto& n : nodes_) {
    if (n.kind != ComponentKind::kExporter || n.change != NodeChange::kChanged) continue;
    Node* old = running.mutableNode(n.key());
    if (Status s = replaceExporter(*old, n, host, deadline); !s.isOk()) note(s);
  }

  // 3. Kept processors, connectors and receivers feed the new chain from now on.
  std::vector<std::pair<SwitchConsumer*, SwitchConsumer::RoutePtr>> old_routes;
  for (auto& n : nodes_) {
    if (n.change != NodeChange::kKept) continue;
    if (n.kind == ComponentKind::kProcessor || n.kind == ComponentKind::kReceiver)
      old_routes.emplace_back(n.edge.get(), n.edge->repoint(n.target));
    if (n.kind == ComponentKind::kConnector)
      for (auto& [pipeline, edge] : n.route_edges)
        old_routes.emplace_back(edge.get(), edge->repoint(n.route_targets.at(pipeline)));
  }

  // 4. Receivers that go away or change stop (their sockets close), then the new ones start. A late
  // call through a stopped receiver's edge is refused as retryable instead of reaching the old chain.
  for (auto& old : running.nodes_) {
    if (old.kind != ComponentKind::kReceiver || fate(old) == NodeChange::kKept) continue;
    old.component->shutdown(deadline);
    old_routes.emplace_back(old.edge.get(), old.edge->close());
  }
  letIoCatchUp(*runtime_, io_threads);
  for (auto& n : nodes_)
    if (n.kind == ComponentKind::kReceiver && n.change != NodeChange::kKept)
      if (Status s = n.component->start(host); !s.isOk()) note(startError(n, s));

  // 5. The calls still in the old chain finish there; then it shuts down, upstream first.
  for (auto& [edge, route] : old_routes)
    if (!edge->waitIdle(route, deadline)) spdlog::warn("reload: calls into the previous pipelines still running at the deadline");
  for (size_t i = running.nodes_.size(); i-- > 0;) {
    Node& old = running.nodes_[i];
    const NodeChange f = fate(old);
    if (f == NodeChange::kKept || old.kind == ComponentKind::kReceiver) continue;  // running, or done in 4
    if (old.kind == ComponentKind::kExporter && f == NodeChange::kChanged) continue;  // done in 2
    old.component->shutdown(deadline);
  }
  running.shut_down_ = true;  // what it still holds runs on in this graph
  started_ = nodes_.size();
  if (!errors.empty()) return Status::internal(errors);
  return Status::ok();
}

Status PipelineGraph::replaceExporter(Node& old, Node& n, Host& host, Deadline deadline) {
  if (!n.edge->pause(deadline)) {
    // A call still inside the old instance: shutting it down would pull its sender from under that
    // call, and its queue directory stays locked until it is gone. It keeps serving, with the
    // settings it runs, and the next reload replaces it again.
    n.edge->resume(old.target);
    n.config_owner = std::move(old.config_owner);
    n.component = std::move(old.component);  // the unstarted replacement goes; it opened nothing
    n.target = std::move(old.target);
    n.runs_previous_settings = true;
    return Status::unavailable("replacing " + describe(n) +
                               ": calls were still in it at the reload deadline; it keeps its previous settings");
  }
  old.component->shutdown(deadline);
  std::weak_ptr<Component> gone = old.component;
  old.component.reset();  // frees what the new instance takes over (the queue directory's lock)
  Status s = gone.expired() ? n.component->start(host)
                            : Status::internal("the previous instance is still referenced; not starting its replacement");
  n.edge->resume(n.target);
  return s.isOk() ? s : startError(n, s);
}

void keepPreviousSettings(const PipelineGraph& graph, const config::ServiceConfig& previous,
                          config::ServiceConfig* next) {
  for (const auto& n : graph.nodes())
    if (n.runs_previous_settings) next->exporters.at(n.id).settings = previous.exporters.at(n.id).settings;
}

}  // namespace proflow::graph
