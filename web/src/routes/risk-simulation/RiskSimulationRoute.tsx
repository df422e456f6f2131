import { AdminOnly } from '../../shell/AccessGate';
import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'Risk Simulation & Analysis'. */
export default function RiskSimulationRoute() {
  return (
    <AdminOnly>
      <NotAvailableYet title="Risk Simulation & Analysis" />
    </AdminOnly>
  );
}
