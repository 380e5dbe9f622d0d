// The C entry points for tenants (fdb_c.h). contend's database runs with FoundationDB's default
// tenant mode, disabled: a tenant opens and makes transactions, as FoundationDB's do without
// asking the cluster, and the cluster's answer comes at the first use — a tenant transaction's
// reads, watches and commits, and the tenant's id, answer tenants_disabled (2136).
#include "fdb_c/api_calls.h"
#include "fdb_c/errors.h"
#include "fdb_c/transaction.h"
#include "fdb_c/world.h"

using namespace contend;
using namespace contend::fdb;
using namespace contend::fdb::api;

extern "C" {

fdb_error_t fdb_database_open_tenant(FDBDatabase* d, const uint8_t* tenant_name,
                                     int tenant_name_length, FDBTenant** out_tenant) {
  if (d == nullptr || out_tenant == nullptr) return kClientInvalidOperation;
  return error_call([&] {
    const BytesView name = view(tenant_name, tenant_name_length);
    *out_tenant = new FDB_tenant{d->state, Bytes(name)};
    return kSuccess;
  });
}

fdb_error_t fdb_tenant_create_transaction(FDBTenant* tenant, FDBTransaction** out_transaction) {
  if (tenant == nullptr || out_transaction == nullptr) return kClientInvalidOperation;
  return error_call([&] {
    auto state = make_transaction(World::get(), tenant->database);
    state->refuse_cluster_use_with(kTenantsDisabled);
    *out_transaction = new FDB_transaction{std::move(state)};
    return kSuccess;
  });
}

FDBFuture* fdb_tenant_get_id(FDBTenant* tenant) {
  if (tenant == nullptr) return failed_future(kClientInvalidOperation);
  note_call();
  return failed_future(kTenantsDisabled);
}

void fdb_tenant_destroy(FDBTenant* tenant) {
  delete tenant;
}

}  // extern "C"
