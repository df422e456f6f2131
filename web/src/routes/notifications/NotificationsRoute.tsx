import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'Notifications'. */
export default function NotificationsRoute() {
  return <NotAvailableYet title="Notifications" />;
}
