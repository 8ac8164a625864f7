export default function EventEditPage() {
  return null;
}
