export default function EventsPage() {
  return null;
}
