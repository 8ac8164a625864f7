import { Outlet } from 'react-router-dom';
import '../../components/plain/plain.css';

/** Login, reset and error pages: no header or menu, and no MUI (they load first). */
export function PublicLayout() {
  return (
    <main className="plain-page">
      <Outlet />
    </main>
  );
}
